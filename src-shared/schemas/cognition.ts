import { created, int, str, readObject } from './common';

/** External AI connection; appKey and password are secrets the log must never print. */
export const CognitionSchema = readObject({
  appId: str(),
  appKey: str(),
  endPoint: str(),
  id: int(),
  name: str(),
  password: str(),
  type: str(),
  userName: str(),
  version: str(),
  ...created,
});
