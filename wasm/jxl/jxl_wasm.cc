// This repository's JPEG XL encode API over libjxl, for WebAssembly (wasm/jxl/build.sh builds it; wasm/jxl/libjxl.ts
// calls it). The caller writes RGBA into a buffer of the module's memory (jxl_buffer) and calls jxl_encode; libjxl
// reads the picture from that buffer a region at a time (chunked input) and writes the file through an output
// processor, so for a large picture it works a DC group (2048 × 2048) at a time instead of holding the whole frame as
// float planes: the module's memory stays about flat from 12 to 48 MP (docs/decisions/memory-budget.md).
#include <jxl/encode.h>
#include <jxl/encode_cxx.h>
#if JXL_WASM_THREADS
#include <jxl/thread_parallel_runner.h>
#include <jxl/thread_parallel_runner_cxx.h>
#endif

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

// The picture the caller wrote: RGBA, or RGB once an opaque one is packed in place.
struct Picture {
  const uint8_t* pixels;
  uint32_t width;
  uint32_t height;
  uint32_t channels;
};

JxlPixelFormat FormatOf(const Picture& picture) {
  return JxlPixelFormat{picture.channels, JXL_TYPE_UINT8, JXL_LITTLE_ENDIAN, 0};
}

void ColorFormat(void* opaque, JxlPixelFormat* format) { *format = FormatOf(*static_cast<Picture*>(opaque)); }

const void* ColorAt(void* opaque, size_t x, size_t y, size_t, size_t, size_t* row_offset) {
  const Picture& picture = *static_cast<Picture*>(opaque);
  *row_offset = size_t{picture.width} * picture.channels;
  return picture.pixels + y * *row_offset + x * picture.channels;
}

// Alpha travels interleaved with the colour (four channels): libjxl asks for no separate extra channel.
void ExtraFormat(void* opaque, size_t, JxlPixelFormat* format) { *format = FormatOf(*static_cast<Picture*>(opaque)); }
const void* ExtraAt(void*, size_t, size_t, size_t, size_t, size_t, size_t*) { return nullptr; }
void Release(void*, const void*) {}

// The file as libjxl writes it: it may seek back to fill in its table of contents.
struct Output {
  std::vector<uint8_t> bytes;
  size_t position = 0;
  size_t end = 0;
};

void* OutputBuffer(void* opaque, size_t* size) {
  Output& output = *static_cast<Output*>(opaque);
  if (*size == 0) *size = 1 << 16;
  if (output.bytes.size() < output.position + *size) output.bytes.resize(output.position + *size);
  return output.bytes.data() + output.position;
}

void OutputWritten(void* opaque, size_t written) {
  Output& output = *static_cast<Output*>(opaque);
  output.position += written;
  if (output.position > output.end) output.end = output.position;
}

void OutputSeek(void* opaque, uint64_t position) { static_cast<Output*>(opaque)->position = position; }
void OutputFinalized(void*, uint64_t) {}

Output output;

bool Opaque(const uint8_t* rgba, size_t pixels) {
  for (size_t i = 0; i < pixels; i++) {
    if (rgba[i * 4 + 3] != 255) return false;
  }
  return true;
}

// Packs RGBA to RGB in place: an opaque picture is encoded without an alpha channel.
void PackRgb(uint8_t* rgba, size_t pixels) {
  for (size_t i = 0; i < pixels; i++) std::memmove(rgba + i * 3, rgba + i * 4, 3);
}

}  // namespace

extern "C" {

// A buffer of the module's memory for the caller to write a picture into; jxl_encode may overwrite it.
uint8_t* jxl_buffer(size_t size) { return static_cast<uint8_t*>(std::malloc(size)); }
void jxl_free(void* buffer) { std::free(buffer); }

// Encodes the width × height RGBA picture at `rgba` (8 bits a channel, sRGB) at libjxl's quality scale (`quality`
// 0–100; lossless at 100) and effort, on `threads` threads (the threaded build; 1 or fewer: the calling thread).
// Returns 0 and leaves the file at jxl_output(), jxl_output_size(); else libjxl's error code (JxlEncoderError), or -1
// where the encoder could not be made.
int jxl_encode(uint8_t* rgba, uint32_t width, uint32_t height, float quality, int effort, int threads) {
  output = Output{};
  const size_t pixels = size_t{width} * height;
  const bool opaque = Opaque(rgba, pixels);
  if (opaque) PackRgb(rgba, pixels);
  Picture picture{rgba, width, height, opaque ? 3u : 4u};
  const bool lossless = quality >= 100;

  JxlEncoderPtr encoder = JxlEncoderMake(nullptr);
  if (!encoder) return -1;
  JxlEncoder* enc = encoder.get();
#if JXL_WASM_THREADS
  JxlThreadParallelRunnerPtr runner = threads > 1 ? JxlThreadParallelRunnerMake(nullptr, threads) : nullptr;
  if (runner && JxlEncoderSetParallelRunner(enc, JxlThreadParallelRunner, runner.get()) != JXL_ENC_SUCCESS) {
    return JxlEncoderGetError(enc);
  }
#else
  (void)threads;
#endif

  JxlBasicInfo info;
  JxlEncoderInitBasicInfo(&info);
  info.xsize = width;
  info.ysize = height;
  info.bits_per_sample = 8;
  info.num_color_channels = 3;
  info.alpha_bits = opaque ? 0 : 8;
  info.num_extra_channels = opaque ? 0 : 1;
  info.uses_original_profile = lossless ? JXL_TRUE : JXL_FALSE;
  JxlColorEncoding srgb;
  JxlColorEncodingSetToSRGB(&srgb, JXL_FALSE);
  JxlEncoderFrameSettings* settings = JxlEncoderFrameSettingsCreate(enc, nullptr);
  const bool ready = JxlEncoderSetBasicInfo(enc, &info) == JXL_ENC_SUCCESS &&
                     JxlEncoderSetColorEncoding(enc, &srgb) == JXL_ENC_SUCCESS &&
                     JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, effort) == JXL_ENC_SUCCESS &&
                     (lossless ? JxlEncoderSetFrameLossless(settings, JXL_TRUE)
                               : JxlEncoderSetFrameDistance(settings, JxlEncoderDistanceFromQuality(quality))) == JXL_ENC_SUCCESS &&
                     JxlEncoderSetOutputProcessor(enc, JxlEncoderOutputProcessor{&output, OutputBuffer, OutputWritten, OutputSeek, OutputFinalized}) ==
                         JXL_ENC_SUCCESS;
  if (!ready) return JxlEncoderGetError(enc);

  JxlChunkedFrameInputSource source{&picture, ColorFormat, ColorAt, ExtraFormat, ExtraAt, Release};
  if (JxlEncoderAddChunkedFrame(settings, JXL_TRUE, source) != JXL_ENC_SUCCESS) return JxlEncoderGetError(enc);
  JxlEncoderCloseInput(enc);
  if (JxlEncoderFlushInput(enc) != JXL_ENC_SUCCESS) return JxlEncoderGetError(enc);
  return 0;
}

const uint8_t* jxl_output() { return output.bytes.data(); }
size_t jxl_output_size() { return output.end; }
// Lets the last file's bytes go once the caller has copied them out.
void jxl_release_output() { output = Output{}; }

}  // extern "C"
