// JPEG decoding with libturbojpeg straight to the rectangle the image will
// occupy in the model input, as sharp's path (decode-image.ts) does it: DCT
// scaling by 1/2, 1/4 or 1/8 where sharp's shrink-on-load would (never the
// whole of an exact 2x/4x/8x), the partial last block dropped as libvips
// does, then the triangle-filter reduce (reduce.h) for the rest, EXIF
// orientation applied last. Same libjpeg decode (islow IDCT, fancy chroma
// upsampling), same scale, same filter: its pixels are sharp's within 2
// levels, textured photographs included, while it skips libvips' pipeline
// overhead. Only what this path decodes as sharp would is taken; the rest
// (CMYK, embedded ICC profiles, 12-bit, images smaller than their
// rectangle, any libjpeg warning) is declined or fails, and is left to sharp.
// Compiled where turbojpeg.h is found (SENSE_HAVE_TURBOJPEG); the library
// itself is opened at run time, so a machine without it only loses this path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace sense {

// What the markers before the first scan say.
struct JpegMarkers {
  int orientation = 1;  // EXIF orientation (1-8), 1 when absent or invalid
  bool icc = false;     // an APP2 ICC_PROFILE segment is present
  int precision = 0;    // sample precision of the SOF segment (8 or 12), 0 if none seen
};

// Scans the marker segments up to the first SOS. Never reads outside
// [data, data + size); malformed segments end the scan.
JpegMarkers ScanJpegMarkers(const uint8_t* data, size_t size);

// Parses an EXIF (TIFF) block, starting at the "II"/"MM" byte-order mark,
// and returns its orientation tag (IFD0, else IFD1), 1 when absent/invalid.
int ExifOrientation(const uint8_t* tiff, size_t size);

// Where the image will land in the model input: a box of boxWidth x
// boxHeight, filled (stretch) or fitted keeping the aspect ratio (letterbox);
// a box of 0 x 0 asks for the whole image at its own size.
struct JpegTarget {
  int boxWidth = 0;
  int boxHeight = 0;
  bool letterbox = true;
};

struct JpegImage {
  int width = 0;         // size as displayed (orientation applied), full resolution
  int height = 0;
  int pixelsWidth = 0;   // size of the output: the rectangle in the model input
  int pixelsHeight = 0;
  int channels = 3;      // RGB, greyscale JPEGs included (as sharp gives them)
  int orientation = 1;
  int storedWidth = 0;   // full size as stored (before orientation)
  int storedHeight = 0;
  int scaleDenom = 1;    // the DCT scale used: 1/scaleDenom
  int decodeWidth = 0;   // size libjpeg outputs (as stored, DCT-scaled, rounded up)
  int decodeHeight = 0;
  int keptWidth = 0;     // what of it is used: whole scaled pixels only, as libvips keeps them
  int keptHeight = 0;
};

enum class JpegStatus { kOk, kDeclined, kFailed };

// Whether JPEG can be decoded here at all (built with it, libturbojpeg opened).
bool JpegAvailable();

// Whether this build has the JPEG path at all (turbojpeg.h was found when it
// was configured): false says a rebuild would bring it, where the header is.
bool JpegBuiltIn();

// Why JpegAvailable() is false (built without the header, library missing), or "".
const char* JpegUnavailableReason();

// Phase 1: reads the header, places the image and picks the DCT scale.
// kFailed (reason in *error) on an unreadable header or when width*height
// exceeds maxPixels; kDeclined for what it leaves to sharp (see above), or
// when libturbojpeg is unavailable.
JpegStatus ReadJpegHeader(const uint8_t* data, size_t size, double maxPixels, const JpegTarget& target,
                          JpegImage* image, std::string* error);

// Phase 2: decodes into `out`, pixelsWidth*pixelsHeight*channels bytes,
// rows top to bottom, resized to the rectangle, orientation applied. False
// (reason in *error) on corrupt data, a libjpeg warning included: nothing
// half-decoded is used.
bool DecodeJpegPixels(const uint8_t* data, size_t size, const JpegImage& image, uint8_t* out, std::string* error);

}  // namespace sense
