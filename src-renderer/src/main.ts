import { mount } from 'svelte';
import App from './App.svelte';
import './ui/theme.css';
import { startFeatures } from './features';

startFeatures();
mount(App, { target: document.getElementById('app')! });
