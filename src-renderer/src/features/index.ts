// Each feature registers its views, commands and strings when imported. One line per feature.
import './attendance';
import './supervisor';
import './voice';
import './webhooks';
import './settings';
