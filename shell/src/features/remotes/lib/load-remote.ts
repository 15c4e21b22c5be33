import {
  __federation_method_getRemote as getRemote,
  __federation_method_setRemote as setRemote,
  __federation_method_unwrapDefault as unwrapDefault,
} from 'virtual:__federation__';
import { createRemoteLoader } from './remote-loader';

/** The shell's one remote loader, over the federation plugin's runtime. */
export const loadRemoteApp = createRemoteLoader({ setRemote, getRemote, unwrapDefault });
