// The small encode API the app calls (wasm/jpegli/jpegli.ts): RGBA pixels in, a JPEG out, through jpegli's libjpeg-style
// interface. Built by wasm/jpegli/build.sh into jpegli.wasm, a WASI reactor with no JavaScript glue.
//
// Errors: jpegli reports them through error_exit, which must not return. There is no longjmp here (the build has no
// exception handling), so error_exit keeps the message and traps; the loader reads the message, throws it as an Error
// and drops the instance, whose memory may be half-way through an encode.

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "lib/jpegli/encode.h"

namespace {

char last_error[JMSG_LENGTH_MAX] = {0};
unsigned char* output = nullptr;
unsigned long output_size = 0;  // NOLINT(runtime/int): jpegli_mem_dest's type
// One encode at a time: jpegli's state between pc_start and pc_finish, and the rows buffer the loader fills.
jpeg_compress_struct compress;
jpeg_error_mgr errors;
uint8_t* rows = nullptr;

[[noreturn]] void KeepMessageAndTrap(j_common_ptr cinfo) {
  (*cinfo->err->format_message)(cinfo, last_error);
  __builtin_trap();
}

// Warnings (a corrupt-data note, say) are not errors for an encoder: they are dropped rather than printed.
void IgnoreMessage(j_common_ptr, int) {}

void ReleaseOutput() {
  std::free(output);
  output = nullptr;
  output_size = 0;
}

}  // namespace

extern "C" {

__attribute__((export_name("pc_alloc"))) void* pc_alloc(size_t size) { return std::malloc(size); }

__attribute__((export_name("pc_free"))) void pc_free(void* pointer) { std::free(pointer); }

__attribute__((export_name("pc_output"))) const unsigned char* pc_output() { return output; }

__attribute__((export_name("pc_output_size"))) size_t pc_output_size() { return output_size; }

__attribute__((export_name("pc_error"))) const char* pc_error() { return last_error; }

/**
 * Starts encoding `width` × `height` RGBA pixels (alpha is dropped: JPEG has none) as a JPEG, and returns a buffer of
 * `buffer_rows` rows (width × 4 bytes each) for the loader to fill and hand over with pc_write_rows, top to bottom.
 * The pixels come a strip at a time, so the heap never holds the whole picture twice (the caller has it already) and
 * the strip stays in the CPU's cache while jpegli reads it.
 *
 * quality:      1–100, libjpeg's scale; jpegli maps it to its own distance (jpegli_quality_to_distance).
 * distance:     > 0 to set the butteraugli distance directly instead of the quality.
 * subsampling:  0 for 4:2:0, 1 for 4:4:4 (jpegli's adaptive quantisation works best at 4:4:4 below distance 1.5).
 * progressive:  jpegli's progressive level, 0 (sequential) to 2 (its default).
 * exif, icc:    written as APP1 "Exif\0\0" + the TIFF structure, and as APP2 ICC_PROFILE chunks; empty for none.
 *
 * On an error it traps (see the header).
 */
__attribute__((export_name("pc_start"))) uint8_t* pc_start(uint32_t width, uint32_t height, int quality, float distance, int subsampling,
                                                          int progressive, const uint8_t* exif, uint32_t exif_size, const uint8_t* icc,
                                                          uint32_t icc_size, uint32_t buffer_rows) {
  ReleaseOutput();
  std::free(rows);
  rows = nullptr;
  last_error[0] = '\0';
  compress.err = jpegli_std_error(&errors);
  errors.error_exit = KeepMessageAndTrap;
  errors.emit_message = IgnoreMessage;
  jpegli_create_compress(&compress);
  jpegli_mem_dest(&compress, &output, &output_size);
  compress.image_width = width;
  compress.image_height = height;
  compress.input_components = 4;
  compress.in_color_space = JCS_EXT_RGBA;
  jpegli_set_defaults(&compress);
  if (distance > 0) {
    jpegli_set_distance(&compress, distance, TRUE);
  } else {
    jpegli_set_quality(&compress, quality, TRUE);
  }
  const int luma_factor = subsampling == 1 ? 1 : 2;
  compress.comp_info[0].h_samp_factor = luma_factor;
  compress.comp_info[0].v_samp_factor = luma_factor;
  for (int c = 1; c < compress.num_components; ++c) {
    compress.comp_info[c].h_samp_factor = 1;
    compress.comp_info[c].v_samp_factor = 1;
  }
  jpegli_set_progressive_level(&compress, progressive);
  compress.optimize_coding = TRUE;
  jpegli_start_compress(&compress, TRUE);
  if (exif_size > 0) {
    std::vector<uint8_t> app1(6 + exif_size);
    std::memcpy(app1.data(), "Exif\0\0", 6);
    std::memcpy(app1.data() + 6, exif, exif_size);
    jpegli_write_marker(&compress, JPEG_APP0 + 1, app1.data(), static_cast<unsigned int>(app1.size()));
  }
  if (icc_size > 0) jpegli_write_icc_profile(&compress, icc, icc_size);
  rows = static_cast<uint8_t*>(std::malloc(static_cast<size_t>(width) * 4 * buffer_rows));
  return rows;
}

/** Encodes the first `count` rows of the buffer pc_start returned, as the next rows of the picture. */
__attribute__((export_name("pc_write_rows"))) void pc_write_rows(uint32_t count) {
  const size_t stride = static_cast<size_t>(compress.image_width) * 4;
  for (uint32_t i = 0; i < count; ++i) {
    JSAMPROW row = rows + i * stride;
    jpegli_write_scanlines(&compress, &row, 1);
  }
}

/** Ends the encode once every row is written; the JPEG is then pc_output's. */
__attribute__((export_name("pc_finish"))) void pc_finish() {
  jpegli_finish_compress(&compress);
  jpegli_destroy_compress(&compress);
  std::free(rows);
  rows = nullptr;
}

/** Lets the last output go (the loader has copied it out). */
__attribute__((export_name("pc_release"))) void pc_release() { ReleaseOutput(); }

}  // extern "C"
