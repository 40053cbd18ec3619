// jpeglib.h uses FILE and size_t without including their headers, so stdio.h comes first.
#include <stdio.h>
#include <jpeglib.h>
