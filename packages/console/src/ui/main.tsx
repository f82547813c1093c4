import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './console.css';
import { App } from './app';
import { consoleStore } from './console-store';

// The requests start before the first render: the network works while the shell is drawn.
consoleStore.connect();
const root = document.getElementById('app')!;
// Replace the server-rendered "Loading" line (render would append beside it).
root.textContent = '';
render(<App title={root.dataset.title ?? 'Core console'} />, root);
