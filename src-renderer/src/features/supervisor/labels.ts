import type { ResourceKey } from '../../../../src-shared/paths';

/** Resource names as supervisors read them, with the service's own key beside. */
export const RESOURCE_LABELS_FOR_UI: Record<ResourceKey, string> = {
  agent: 'Agents', userSession: 'Sessions', userAttribute: 'User attributes', userAttributeHistory: 'User attribute history',
  userAgent: 'User–agent links', botTag: 'Bot tags', sessionComment: 'Session notes', attendanceTimeReport: 'Attendance time report',
  pauseReason: 'Pause reasons', message: 'Messages', messageBundleGroup: 'Canned replies', hsmTemplate: 'Message templates',
  hsmTemplateGroup: 'Template groups', holidayOperation: 'Holidays', attribute: 'Attributes', bot: 'Bots', botAnswer: 'Bot answers',
  call: 'Calls', callLogHistory: 'Call log', chatAnswer: 'Chat answers', chatWebConfiguration: 'Web chat configuration',
  classification: 'Classifications', classificationService: 'Classified sessions', cognition: 'AI connections',
  directMessage: 'Direct messages', workSchedule: 'Work schedules', user: 'Users',
};
