import { z } from 'zod';
import { audit, bool, int, list, nested, ref, str, readObject } from './common';
import { OperationSchema, UserSchema } from './people';

/**
 * Classification node (§2.8), recursive through `children`. v2 turned children from strings
 * into objects and removed `parent` (§9.9); both shapes of a child are accepted.
 */
export interface ClassificationNode {
  [field: string]: unknown;
  active?: boolean | null;
  children?: Array<ClassificationNode | string> | null;
  parent?: ClassificationNode | null;
  createdAt?: string | null;
  createdBy?: string | null;
  updatedAt?: string | null;
  updatedBy?: string | null;
  id?: number | null;
  nodeId?: number | null;
  value?: string | null;
}

export const ClassificationNodeSchema: z.ZodType<ClassificationNode> = z.lazy(() =>
  readObject({
    active: bool(),
    children: list(z.union([ClassificationNodeSchema, z.string()])),
    parent: nested(ClassificationNodeSchema),
    id: int(),
    nodeId: int(),
    value: str(),
    ...audit,
  }),
);

export const ChannelRefSchema = readObject({ id: int(), name: str() });

/** Attendance group configuration (§2.6). `timeUnit` stays a free string. */
export const GroupConfigurationSchema = readObject({
  acceptedMedias: str(),
  active: bool(),
  agentExpireSession: bool(),
  agentReplyMaxDelay: int(),
  broker: str(),
  businessUnit: str(),
  channels: list(ChannelRefSchema),
  classificationTree: ref(ClassificationNodeSchema),
  configInactivity: bool(),
  configInactivityTime: int(),
  defaultAgent: ref(UserSchema),
  emailActiveShipping: bool(),
  finalAgent: ref(UserSchema),
  gatewayQueue: str(),
  id: int(),
  inactivityAction: str(),
  inactivityAgent: ref(UserSchema),
  inactivityGroup: int(),
  pushShipping: bool(),
  interactQueueDelay: int(),
  limitTimeWaitingForInteract: int(),
  mandatoryClassificationTree: bool(),
  mandatoryFinalAgent: bool(),
  name: str(),
  offlineAttendance: bool(),
  onlyBot: bool(),
  onlyReceptive: bool(),
  operation: nested(OperationSchema),
  pausedTransfer: bool(),
  pending: bool(),
  queueControl: str(),
  queueScheduleStrategy: bool(),
  redirectAttendanceAgentDisconnect: bool(),
  scheduleActiveSendTime: int(),
  scheduleName: str(),
  skipQueue: bool(),
  sla: int(),
  smsActiveShipping: bool(),
  survey: int(),
  messengerActiveShipping: bool(),
  timeMaxAttendance: int(),
  timePending: int(),
  timeUnit: str(),
  uraActiveShipping: bool(),
  visible: bool(),
  voiceActiveShipping: bool(),
  warningRatio: int(),
  smsPartnerFlag: bool(),
  chatAppActiveShipping: bool(),
  chatAppPartner: bool(),
  chatAppPartnerInactivity: int(),
  ...audit,
});

export type GroupConfiguration = z.infer<typeof GroupConfigurationSchema>;
