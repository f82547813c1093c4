import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './console.css';
import { App } from './app';

const root = document.getElementById('app')!;
// Replace the server-rendered "Loading" line (render would append beside it).
root.textContent = '';
render(<App title={root.dataset.title ?? 'Core console'} />, root);
