import '../core/styles.css';
import { startExplorer } from '../core/app.ts';

startExplorer({ service: 'economy', nav: [], views: [] });
