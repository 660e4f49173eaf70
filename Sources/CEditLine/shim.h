// libedit's readline interface (BSD licence). The path is spelled out: <readline/readline.h>
// would pick GNU readline (GPL), which is also installed on some machines.
#include <stdio.h>
#include <editline/readline.h>
