import '@termpaste/ui/theme.css';
import './shell.css';

// Module Federation: shared singletons are negotiated before the app's own code runs. (A page the server
// painted starts this script only once it has shown: public/paint-boot.js.)
import('./bootstrap');
