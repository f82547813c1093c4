import { useEffect, useState } from 'preact/hooks';

/** The view addressed by the fragment: `#/dependencies/{id}`, `#/story`, `#/catalogs/{id}`... */
export function currentRoute(): string[] {
  const hash = location.hash.replace(/^#\/?/, '');
  return hash === '' ? [] : hash.split('/').map((part) => decodeURIComponent(part));
}

export function href(...parts: string[]): string {
  return `#/${parts.map((part) => encodeURIComponent(part)).join('/')}`;
}

export function useRoute(): string[] {
  const [route, setRoute] = useState(currentRoute());
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}
