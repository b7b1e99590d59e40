import { mountStandalone } from '@termpaste/ui/standalone';
import { screens } from './screens';

mountStandalone('messaging', screens);
