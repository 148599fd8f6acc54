#pragma once

#include <string>

#include "../render/canvas.h"

namespace geo::io {

/// Writes a canvas as CSV lines "name,area".
class Exporter {
public:
    explicit Exporter(std::string path);

    /// Writes every shape; returns how many lines were written.
    int write(const render::Canvas& canvas);

    /// Uploads the file with the command in GEO_UPLOAD.
    bool upload() const;

private:
    std::string path_;
};

}  // namespace geo::io
