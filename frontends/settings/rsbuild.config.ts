import { frontendConfig } from '../mf-shared';

export default frontendConfig('settings');
