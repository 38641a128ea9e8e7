#include "WeaveDIThreadLocal.h"

_Thread_local void *_Nullable weavedi_current_stack = 0;
