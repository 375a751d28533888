// OpenCode 1.18.33 in the agent lab: the scenarios of opencode-family.ts, through hookrun's plugin in .opencode/plugins/.
import { familyLab } from './opencode-family.ts'

familyLab('opencode')
