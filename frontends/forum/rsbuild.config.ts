import { frontendConfig } from '../mf-shared';

export default frontendConfig('forum');
