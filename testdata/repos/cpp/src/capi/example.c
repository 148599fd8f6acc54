#include <stdio.h>
#include "geo_c.h"

/* A C program that draws through the C API. */
int main(void)
{
    geo_canvas *c = geo_canvas_new();
    geo_canvas_add_circle(c, 2.0);
    printf("%f\n", geo_canvas_area(c));
    return 0;
}
