// Kilo Code 7.7.7 (`kilo run`, OpenCode's engine) in the agent lab: the scenarios of opencode-family.ts, through hookrun's plugin in .kilo/plugins/.
import { familyLab } from './opencode-family.ts'

familyLab('kilo')
