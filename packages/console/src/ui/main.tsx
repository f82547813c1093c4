import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './console.css';
import { App } from './app';

const root = document.getElementById('app')!;
render(<App title={root.dataset.title ?? 'Core console'} />, root);
