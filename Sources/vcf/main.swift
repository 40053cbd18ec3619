import VCFCommands

exit(runVCF())
