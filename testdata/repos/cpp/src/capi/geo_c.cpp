#include "geo_c.h"

#include "../render/canvas.h"

struct geo_canvas {
    geo::render::Canvas canvas;
};

extern "C" {

geo_canvas *geo_canvas_new(void) {
    return new geo_canvas();
}

int geo_canvas_add_circle(geo_canvas *c, double r) {
    if (c == nullptr || r < 0) {
        return -1;
    }
    c->canvas.add(geo::Shape::make("circle", r));
    return 0;
}

double geo_canvas_area(const geo_canvas *c) {
    return c->canvas.covered();
}

}
