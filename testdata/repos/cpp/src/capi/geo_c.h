#ifndef GEO_C_H
#define GEO_C_H

#ifdef __cplusplus
extern "C" {
#endif

/** An opaque canvas for C callers. */
typedef struct geo_canvas geo_canvas;

/** Creates an empty canvas. */
geo_canvas *geo_canvas_new(void);

/** Adds a circle of radius r; returns 0 on success. */
int geo_canvas_add_circle(geo_canvas *c, double r);

/** The area the canvas covers. */
double geo_canvas_area(const geo_canvas *c);

#ifdef __cplusplus
}
#endif

#endif
