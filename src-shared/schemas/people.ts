import { z } from 'zod';
import { audit, bool, dateTime, int, list, nested, ref, reqStr, str, readObject } from './common';

/** Company group (§2.8): the one nested object with a required field. */
export const GroupCompanySchema = readObject({ active: bool(), companyName: reqStr(), id: int(), ...audit });

export const CompanySchema = readObject({
  active: bool(),
  address: str(),
  cep: str(),
  city: str(),
  cnpj: str(),
  companyName: str(),
  complement: str(),
  country: str(),
  defaultLocale: str(),
  email: str(),
  nameContact: str(),
  neighborhood: str(),
  number: str(),
  phoneContact: str(),
  sgemnet: str(),
  site: str(),
  sku: str(),
  state: str(),
  stateRegistration: str(),
  tradeName: str(),
  contractSignature: int(),
  id: int(),
  timeHistory: int(),
  dateEndPilot: dateTime(),
  groupCompany: nested(GroupCompanySchema),
  ...audit,
});

export const OperationSchema = readObject({
  company: nested(CompanySchema),
  country: str(),
  customerPortfolio: bool(),
  defaultLocale: str(),
  id: int(),
  operationName: str(),
  operationStatus: bool(),
  verifyHoliday: str(),
  ...audit,
});

export const ProfileSchema = readObject({ id: int(), name: str(), typeUser: str(), visible: bool(), ...audit });

/** Agent (§2.8). `extensionAttendance` became a string in v2 (§9.10); `user` is an untyped object. */
export const AgentSchema = readObject({
  agentAllHistory: bool(),
  agentAllHistoryOperation: bool(),
  agentAttendSimple: bool(),
  agentViewPhone: bool(),
  audioOn: bool(),
  pauseOnReceiveCall: bool(),
  superAgent: bool(),
  virtualAgent: bool(),
  agentToken: str(),
  attendanceServiceChannel: str(),
  department: str(),
  extensionAttendance: str(),
  loginAttendance: str(),
  passwordAttendance: str(),
  socialToken: str(),
  status: str(),
  id: int(),
  maxChatChannels: int(),
  user: ref(z.lazy((): z.ZodType => UserSchema)),
  ...audit,
});

export const UserSchema = readObject({
  accessKey: str(),
  active: bool(),
  agent: ref(AgentSchema),
  birthDate: dateTime(),
  firstLogin: dateTime(),
  lastLogin: dateTime(),
  company: nested(CompanySchema),
  country: str(),
  cpf: str(),
  defaultLocale: str(),
  displayName: str(),
  email: str(),
  externalCode: str(),
  name: str(),
  operation: str(),
  originUser: str(),
  phone: str(),
  typeUser: str(),
  userName: str(),
  password: str(),
  createdFromSurvey: bool(),
  firstAccess: bool(),
  formal: bool(),
  tm2: bool(),
  usingMFA: bool(),
  visible: bool(),
  id: int(),
  priority: int(),
  ticketUserId: int(),
  profile: nested(ProfileSchema),
  ...audit,
});

export type Agent = z.infer<typeof AgentSchema>;
export type User = z.infer<typeof UserSchema>;

/**
 * /users/rules and /users/channels (added v2 paths; payloads not described by the interface).
 * The stand-in answers `{userName, typeUser, role, rules}` and `{userName, channels:[{id,name}]}`.
 */
export const UserRulesSchema = readObject({ userName: str(), typeUser: str(), role: str(), rules: list(z.string()) });
export const UserChannelsSchema = readObject({ userName: str(), channels: list(z.object({ id: int(), name: str() }).loose()) });
export type UserRules = z.infer<typeof UserRulesSchema>;
export type UserChannels = z.infer<typeof UserChannelsSchema>;
