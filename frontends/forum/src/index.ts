import '@termpaste/ui/theme.css';

// Standalone development entry; in the product the shell loads `./screens` through Module Federation.
import('./bootstrap');
