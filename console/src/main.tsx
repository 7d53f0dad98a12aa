import { render } from 'preact';
import { App } from './app.js';
import './styles.css';
import './layout.css';
import './pages.css';

render(<App />, document.getElementById('app')!);
