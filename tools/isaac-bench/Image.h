//===- Image.h - An RGB raster with PNG output and 5x7 text -----*- C++ -*-===//
//
// Just enough to draw a bar chart without an image library: filled
// rectangles, text in a built-in bitmap font, and a PNG encoder that stores
// the pixels uncompressed.
//
//===----------------------------------------------------------------------===//

#ifndef ISAAC_BENCH_IMAGE_H
#define ISAAC_BENCH_IMAGE_H

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

struct Color {
  uint8_t r, g, b;
};

class Image {
public:
  Image(int width, int height, Color background);
  int width() const { return w; }
  int height() const { return h; }

  /// Fills [x0, x1) x [y0, y1), clipped to the image.
  void fillRect(int x0, int y0, int x1, int y1, Color color);
  /// Draws `text` with its top-left corner at (x, y); each glyph is 5x7
  /// pixels times `scale` with one scaled pixel of spacing. Lowercase
  /// letters other than 'x' are drawn as capitals.
  void drawText(int x, int y, const std::string &text, Color color,
                int scale = 1);
  /// Width in pixels that drawText would use.
  static int textWidth(const std::string &text, int scale = 1);

  /// Writes the image as an 8-bit RGB PNG.
  bool writePng(const std::string &path, std::string &error) const;

private:
  int w, h;
  std::vector<uint8_t> pixels; // rows of RGB triples, top to bottom
};

} // namespace bench

#endif // ISAAC_BENCH_IMAGE_H
