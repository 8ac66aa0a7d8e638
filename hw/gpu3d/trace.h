#include "trace/trace-hw_gpu3d.h"
