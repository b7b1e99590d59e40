import '@termpaste/ui/theme.css';
import './shell.css';

// Module Federation: shared singletons are negotiated before the app's own code runs.
import('./bootstrap');
