#include <iostream>

#include "geo/shape.h"
#include "io/exporter.h"
#include "render/canvas.h"

using geo::Shape;
namespace gr = geo::render;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: geoctl OUT.csv\n";
        return 2;
    }
    gr::Canvas canvas;
    canvas.add(Shape::make("circle", 1.5));
    canvas.add(geo::Shape::make("rect", 2.0));
    canvas.grow_circles();
    geo::io::Exporter exporter(argv[1]);
    exporter.write(canvas);
    auto* ex = new geo::io::Exporter("backup.csv");
    ex->upload();
    delete ex;
    return 0;
}
