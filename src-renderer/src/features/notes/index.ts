// The notes panel is shown inside the attendance view; this module only registers its strings.
import './strings';
