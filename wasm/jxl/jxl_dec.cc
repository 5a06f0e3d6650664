// This repository's JPEG XL decode API over libjxl, for WebAssembly (wasm/jxl/build.sh builds it; wasm/jxl/libjxl.ts
// calls it). The caller writes the file into a buffer of the module's memory (jxl_buffer) and calls jxl_decode, which
// leaves the first picture as 8-bit RGBA in sRGB, turned upright and with straight alpha, at jxl_pixels(): what the
// app's pipeline takes from every decoder. libjxl's colour management (Little-CMS) converts a picture stored in another
// colour space (an ICC profile, a wide gamut), as a browser's decoder does; a grey picture comes out as grey RGB.
#include <jxl/cms.h>
#include <jxl/decode.h>
#include <jxl/decode_cxx.h>

#include <cstdint>
#include <cstdlib>

namespace {

// The last picture decoded: malloc's, so that memory the module cannot grow to is an error code, not an abort.
struct Picture {
  uint8_t* pixels = nullptr;
  uint32_t width = 0;
  uint32_t height = 0;
};

Picture picture;

void Release() {
  std::free(picture.pixels);
  picture = Picture{};
}

// The first picture's own error codes, beside libjxl's statuses (which are all positive).
constexpr int kNotJxl = -1;
constexpr int kTruncated = -2;
constexpr int kFailed = -3;
constexpr int kOutOfMemory = -4;

}  // namespace

extern "C" {

// A buffer of the module's memory for the caller to write a file into.
uint8_t* jxl_buffer(size_t size) { return static_cast<uint8_t*>(std::malloc(size)); }
void jxl_free(void* buffer) { std::free(buffer); }

// Decodes the JPEG XL file of `size` bytes at `data`: its first picture (an animation's first frame as shown, its
// layers merged), in its displayed orientation. Returns 0 and leaves the pixels at jxl_pixels() (width × height × 4
// bytes); else -1 (not JPEG XL), -2 (the file ends early), -3 (libjxl could not decode it), -4 (no memory for the
// pixels).
int jxl_decode(const uint8_t* data, size_t size) {
  Release();
  if (JxlSignatureCheck(data, size) < JXL_SIG_CODESTREAM) return kNotJxl;
  JxlDecoderPtr decoder = JxlDecoderMake(nullptr);
  if (!decoder) return kOutOfMemory;
  JxlDecoder* dec = decoder.get();
  const JxlPixelFormat format{4, JXL_TYPE_UINT8, JXL_LITTLE_ENDIAN, 0};
  if (JxlDecoderSubscribeEvents(dec, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_FULL_IMAGE) != JXL_DEC_SUCCESS ||
      JxlDecoderSetUnpremultiplyAlpha(dec, JXL_TRUE) != JXL_DEC_SUCCESS || JxlDecoderSetCms(dec, *JxlGetDefaultCms()) != JXL_DEC_SUCCESS ||
      JxlDecoderSetInput(dec, data, size) != JXL_DEC_SUCCESS) {
    return kFailed;
  }
  JxlDecoderCloseInput(dec);
  bool grey = false;
  for (;;) {
    switch (JxlDecoderProcessInput(dec)) {
      case JXL_DEC_BASIC_INFO: {
        JxlBasicInfo info;
        if (JxlDecoderGetBasicInfo(dec, &info) != JXL_DEC_SUCCESS) return kFailed;
        // The size as shown: orientations 5–8 swap the stored width and height.
        const bool turned = info.orientation >= JXL_ORIENT_TRANSPOSE;
        picture.width = turned ? info.ysize : info.xsize;
        picture.height = turned ? info.xsize : info.ysize;
        grey = info.num_color_channels == 1;
        break;
      }
      case JXL_DEC_COLOR_ENCODING: {
        // sRGB as libjxl's own ColorEncoding::SRGB describes it (JxlColorEncodingSetToSRGB is the encoder's, and
        // would link the encoder in).
        JxlColorEncoding srgb{};
        srgb.color_space = grey ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB;
        srgb.white_point = JXL_WHITE_POINT_D65;
        srgb.primaries = JXL_PRIMARIES_SRGB;
        srgb.transfer_function = JXL_TRANSFER_FUNCTION_SRGB;
        srgb.rendering_intent = JXL_RENDERING_INTENT_RELATIVE;
        if (JxlDecoderSetOutputColorProfile(dec, &srgb, nullptr, 0) != JXL_DEC_SUCCESS) return kFailed;
        break;
      }
      case JXL_DEC_NEED_IMAGE_OUT_BUFFER: {
        size_t bytes = 0;
        if (JxlDecoderImageOutBufferSize(dec, &format, &bytes) != JXL_DEC_SUCCESS) return kFailed;
        picture.pixels = static_cast<uint8_t*>(std::malloc(bytes));
        if (picture.pixels == nullptr) return kOutOfMemory;
        if (JxlDecoderSetImageOutBuffer(dec, &format, picture.pixels, bytes) != JXL_DEC_SUCCESS) return kFailed;
        break;
      }
      case JXL_DEC_FULL_IMAGE:
        // The first picture is all the app converts: the rest of an animation is not decoded.
        return 0;
      case JXL_DEC_SUCCESS:
        return picture.pixels == nullptr ? kFailed : 0;
      case JXL_DEC_NEED_MORE_INPUT:
        return kTruncated;
      default:
        return kFailed;
    }
  }
}

const uint8_t* jxl_pixels() { return picture.pixels; }
uint32_t jxl_width() { return picture.width; }
uint32_t jxl_height() { return picture.height; }
// Lets the last picture's pixels go once the caller has copied them out.
void jxl_release_pixels() { Release(); }

}  // extern "C"
