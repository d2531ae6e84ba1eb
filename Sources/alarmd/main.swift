import AlarmDaemon
import Glibc

exit(alarmdMain(CommandLine.arguments))
