import { views } from '../../lib/views.svelte';
import { t } from '../../lib/i18n.svelte';
import AttendanceView from './AttendanceView.svelte';

views.register({ id: 'attendance', title: () => t('queue.heading'), icon: '☰', order: 0, component: AttendanceView });
