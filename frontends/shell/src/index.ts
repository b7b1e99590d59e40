import '@termpaste/ui/theme.css';
import './shell.css';
import { PAINT_ID } from '@termpaste/contracts/first-paint';

/**
 * Resolves once the browser has shown a frame: rAF runs just before it, the timeout just after. A hidden
 * tab shows none (and runs no rAF): it resolves at once there.
 */
function afterNextPaint(): Promise<void> {
  if (document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

// A page the server painted shows before the app's scripts are even asked for: their download and
// evaluation never stand between the visitor and the content. Module Federation: shared singletons are
// negotiated before the app's own code runs.
const painted = document.getElementById(PAINT_ID) !== null;
void (painted ? afterNextPaint() : Promise.resolve()).then(() => import('./bootstrap'));
