/*
 * attila-3d: the device's BAR0 control registers, and every numeric code a
 * guest needs to build ATTILA command-processor records (transaction kinds,
 * GPU register ids, commands, events, enumerations, shader encoding).
 *
 * The ATTILA programming reference gives names only; every number below is
 * the public simulator's (attila-gpu/attila-sim, src/sim/GPU.h,
 * AGPTransaction.h, ShaderInstruction.h), as listed in the project's ATTILA
 * simulator (docs/references.md: ATTILA ref. AGP Transactions, GPU
 * Commands, Registers, enumerations; attila-sim GPU.h,
 * ShaderInstruction.cpp). The BAR0 layout is this device's
 * own: the reference models no bus (ATTILA ref. Programming Model);
 * docs/attila-3d.md explains it.
 *
 * One header for the QEMU device, the engine core, the tests and
 * freestanding guests: plain enums, no dependencies.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_ATTILA_REGS_H
#define GPU3D_ATTILA_REGS_H

#include <stdint.h>
#include "gpu3d/regfields.h"

/* ---- PCI identity ------------------------------------------------------ */

#define ATTILA_PCI_VENDOR_ID   0x1234
#define ATTILA_PCI_DEVICE_ID   0x3D02
#define ATTILA_REGS_BAR        0       /* BAR0: control registers, 32-bit MMIO */
#define ATTILA_MEM_BAR         2       /* BAR2: GPU memory, 64-bit prefetchable */
#define ATTILA_BAR0_SIZE       0x10000
#define ATTILA_MEM_SIZE_DEFAULT (256u << 20)   /* BAR2, as the traces assume */

/* ---- BAR0: control registers (32-bit, little-endian) ------------------- */

/* Identification, read-only. */
G3D_REG32(ATTILA_ID, 0x0000)               /* ATTILA_ID_VALUE */
#define ATTILA_ID_VALUE 0x414c5441u        /* the bytes "ATLA" */
G3D_REG32(ATTILA_VERSION, 0x0004)          /* ATTILA_VERSION_VALUE */
#define ATTILA_VERSION_VALUE 0x00010000u
G3D_REG32(ATTILA_MEM_SIZE, 0x0008)         /* GPU memory (BAR2) bytes */
/*
 * The architecture parameters a driver needs to lay out textures and render
 * targets (ATTILA ref. Texture Tiling, Render Buffer Tiling; attila-sim
 * bGPU.ini), fixed in this device, read-only.
 */
G3D_REG32(ATTILA_TILING, 0x000C)
    G3D_FIELD(ATTILA_TILING, TEX_BLOCK, 0, 4)      /* texture block: 2^n texels */
    G3D_FIELD(ATTILA_TILING, TEX_SBLOCK, 4, 4)     /* superblock: 2^m blocks */
    G3D_FIELD(ATTILA_TILING, STAMP, 8, 4)          /* stamp width = height */
    G3D_FIELD(ATTILA_TILING, GEN, 12, 4)           /* generation tile (pixels) */
    G3D_FIELD(ATTILA_TILING, SCAN, 16, 8)          /* scan tile (pixels) */
    G3D_FIELD(ATTILA_TILING, OVERSCAN, 24, 8)      /* over-scan tile (scan tiles) */
/* the values TILING reports (ATTILA ref. Texture Tiling, Render Buffer Tiling:
 * the corpus configuration) */
#define ATTILA_TEX_BLOCK_DIM  2     /* 4x4-texel blocks */
#define ATTILA_TEX_SBLOCK_DIM 4     /* 16x16-block superblocks */
G3D_REG32(ATTILA_MAX_RECORD, 0x0010)       /* largest record the ring accepts */

/* Status, read-only: what is done is done (docs/architecture.md, "tells the
 * truth"). */
G3D_REG32(ATTILA_STATUS, 0x0020)
    G3D_FIELD(ATTILA_STATUS, IDLE, 0, 1)       /* ring empty and nothing running */
    G3D_FIELD(ATTILA_STATUS, ERROR, 1, 1)      /* a bad record was met; see ERROR_* */
    G3D_FIELD(ATTILA_STATUS, RING_ON, 2, 1)    /* RING_CONTROL.ENABLE */
    G3D_FIELD(ATTILA_STATUS, GPU_STATE, 8, 8)  /* GPUStatus of the CP (ATTILA_ST_*) */
G3D_REG32(ATTILA_ERROR_COUNT, 0x0024)      /* bad inputs since reset */
G3D_REG32(ATTILA_ERROR_CODE, 0x0028)       /* first error since the last clear */
G3D_REG32(ATTILA_ERROR_INFO, 0x002C)       /* its detail (record kind, register id..) */
G3D_REG32(ATTILA_FRAME, 0x0030)            /* SWAPBUFFERS executed since reset */
G3D_REG32(ATTILA_RECORDS, 0x0034)          /* records executed since reset */

/*
 * Control. RESET: writing 1 resets the whole device (registers, GPU state,
 * ring pointers; memory is kept). ERROR_CLEAR: writing 1 clears STATUS.ERROR,
 * ERROR_CODE and ERROR_INFO.
 */
G3D_REG32(ATTILA_CONTROL, 0x0040)
    G3D_FIELD(ATTILA_CONTROL, RESET, 0, 1)
    G3D_FIELD(ATTILA_CONTROL, ERROR_CLEAR, 1, 1)

/*
 * The command ring. Entries are records in exactly the trace-file format
 * (ATTILA ref. AGP Transactions; attila-sim AGPTransaction.cpp), unpadded and
 * packed back to back; a record may wrap from the end of the ring to its start.
 * RING_BASE is an ATTILA address: below 2^31 it is in GPU memory (BAR2), with
 * bit 31 set it is system memory at SYSMEM_BASE + (address & 0x7fffffff).
 * RING_READ / RING_WRITE are byte offsets in [0, RING_SIZE); the ring is empty
 * when they are equal, so at most RING_SIZE - 1 bytes are pending. The guest
 * writes records, then moves RING_WRITE, then writes DOORBELL. Writing
 * RING_BASE or RING_SIZE sets RING_READ = RING_WRITE = 0.
 */
G3D_REG32(ATTILA_RING_BASE, 0x0050)
G3D_REG32(ATTILA_RING_SIZE, 0x0054)        /* bytes, 64 .. 2^30 */
G3D_REG32(ATTILA_RING_READ, 0x0058)        /* read-only: next byte the CP reads */
G3D_REG32(ATTILA_RING_WRITE, 0x005C)
G3D_REG32(ATTILA_RING_CONTROL, 0x0060)
    G3D_FIELD(ATTILA_RING_CONTROL, ENABLE, 0, 1)
G3D_REG32(ATTILA_DOORBELL, 0x0064)         /* write: the CP looks at RING_WRITE */

/*
 * System memory window (the bit-31 half of the ATTILA address space,
 * attila-sim MemorySpace.h): ATTILA address 0x80000000 + x is guest physical
 * SYSMEM_BASE + x, for x < SYSMEM_SIZE.
 */
G3D_REG32(ATTILA_SYSMEM_BASE_LO, 0x0070)
G3D_REG32(ATTILA_SYSMEM_BASE_HI, 0x0074)
G3D_REG32(ATTILA_SYSMEM_SIZE, 0x0078)      /* bytes; 0 = window closed */

/*
 * Events (AGP_EVENT records). EVENT_COUNT counts them, LAST_EVENT holds the
 * last event id. A GPU_UNNAMED_EVENT whose message is exactly 4 bytes is a
 * fence: its little-endian value is stored in FENCE.
 */
G3D_REG32(ATTILA_EVENT_COUNT, 0x0080)
G3D_REG32(ATTILA_LAST_EVENT, 0x0084)
G3D_REG32(ATTILA_FENCE, 0x0088)

/* Interrupts: INT_STATUS bits are set by the device, cleared by writing 1. */
G3D_REG32(ATTILA_INT_STATUS, 0x0090)
G3D_REG32(ATTILA_INT_MASK, 0x0094)
    /* same bits in both */
    G3D_FIELD(ATTILA_INT, IDLE, 0, 1)      /* the ring drained */
    G3D_FIELD(ATTILA_INT, EVENT, 1, 1)     /* an AGP_EVENT executed */
    G3D_FIELD(ATTILA_INT, FENCE, 2, 1)     /* FENCE was written */
    G3D_FIELD(ATTILA_INT, SWAP, 3, 1)      /* GPU_SWAPBUFFERS executed */
    G3D_FIELD(ATTILA_INT, ERROR, 4, 1)     /* STATUS.ERROR became set */

/* What is on screen: the front buffer after the last swap (read-only). */
G3D_REG32(ATTILA_SCANOUT_ADDR, 0x00A0)
G3D_REG32(ATTILA_SCANOUT_SIZE, 0x00A4)     /* width | height << 16 */

/*
 * Read-only window of the GPU register file. Direct: ATTILA_REGFILE + 16 *
 * id + 4 * k reads 32-bit word k of element 0 of register id. Indirect: write
 * REGFILE_SELECT = id | index << 8, then read REGFILE_DATA0..3 (an id or
 * index out of range reads 0 and sets STATUS.ERROR).
 */
G3D_REG32(ATTILA_REGFILE_SELECT, 0x0100)
    G3D_FIELD(ATTILA_REGFILE_SELECT, ID, 0, 8)
    G3D_FIELD(ATTILA_REGFILE_SELECT, INDEX, 8, 16)
G3D_REG32(ATTILA_REGFILE_DATA0, 0x0110)
G3D_REG32(ATTILA_REGFILE_DATA1, 0x0114)
G3D_REG32(ATTILA_REGFILE_DATA2, 0x0118)
G3D_REG32(ATTILA_REGFILE_DATA3, 0x011C)
#define ATTILA_REGFILE        0x1000       /* .. 0x1000 + 16 * 151 */

/* Error codes (ERROR_CODE). */
enum {
    ATTILA_ERR_NONE = 0,
    ATTILA_ERR_RECORD_KIND = 1,     /* unknown transaction kind; INFO = kind */
    ATTILA_ERR_RECORD_SIZE = 2,     /* record larger than the ring; INFO = size */
    ATTILA_ERR_REGISTER = 3,        /* unknown or read-only register; INFO = id */
    ATTILA_ERR_SUBINDEX = 4,        /* sub-index out of range; INFO = id | idx << 8 */
    ATTILA_ERR_VALUE = 5,           /* value out of range; INFO = id */
    ATTILA_ERR_ADDRESS = 6,         /* memory access outside memory; INFO = address */
    ATTILA_ERR_COMMAND = 7,         /* unknown command; INFO = command */
    ATTILA_ERR_DRAW = 8,            /* draw/clear/blit state unusable; INFO = register */
    ATTILA_ERR_SHADER = 9,          /* invalid shader instruction; INFO = pc */
    ATTILA_ERR_RING = 10,           /* ring registers unusable; INFO = offset */
};

/* ---- transaction records (ATTILA ref. AGP Transactions; attila-sim
 * AGPTransaction.cpp) */

enum {
    ATTILA_AGP_WRITE = 0,
    ATTILA_AGP_READ = 1,            /* never in a trace; rejected */
    ATTILA_AGP_PRELOAD = 2,
    ATTILA_AGP_REG_WRITE = 3,
    ATTILA_AGP_REG_READ = 4,        /* never in a trace; rejected */
    ATTILA_AGP_COMMAND = 5,
    ATTILA_AGP_INIT_END = 6,        /* never in a trace; rejected */
    ATTILA_AGP_EVENT = 7,
};

/*
 * Record byte layouts (little-endian, no padding):
 *   WRITE/PRELOAD: u32 kind, u32 address, u32 md, u8 locked, u32 size, data
 *   REG_WRITE:     u32 kind, u32 register, u32 sub-index, u8 value[16], u32 md
 *   COMMAND:       u32 kind, u32 command
 *   EVENT:         u32 kind, u32 event, u32 length, message bytes
 */
#define ATTILA_REC_WRITE_HDR   17
#define ATTILA_REC_REG_WRITE   32
#define ATTILA_REC_COMMAND     8
#define ATTILA_REC_EVENT_HDR   12

/* Trace file header (gzip stream): signature, version, parameter block. */
#define ATTILA_TRACE_SIGNATURE "ATILAt"
#define ATTILA_TRACE_VERSION   0x0100
#define ATTILA_TRACE_HDR_SIZE  16396

/* ---- commands (GPUCommand) --------------------------------------------- */

enum {
    ATTILA_CMD_RESET = 0,
    ATTILA_CMD_DRAW = 1,
    ATTILA_CMD_SWAPBUFFERS = 2,
    ATTILA_CMD_DUMPCOLOR = 3,
    ATTILA_CMD_DUMPDEPTH = 4,
    ATTILA_CMD_DUMPSTENCIL = 5,
    ATTILA_CMD_BLIT = 6,
    ATTILA_CMD_CLEARBUFFERS = 7,
    ATTILA_CMD_CLEARZBUFFER = 8,
    ATTILA_CMD_CLEARZSTENCILBUFFER = 9,
    ATTILA_CMD_CLEARCOLORBUFFER = 10,
    ATTILA_CMD_LOAD_VERTEX_PROGRAM = 11,
    ATTILA_CMD_LOAD_FRAGMENT_PROGRAM = 12,
    ATTILA_CMD_LOAD_SHADER_PROGRAM = 13,
    ATTILA_CMD_FLUSHZSTENCIL = 14,
    ATTILA_CMD_FLUSHCOLOR = 15,
    ATTILA_CMD_SAVE_COLOR_STATE = 16,
    ATTILA_CMD_RESTORE_COLOR_STATE = 17,
    ATTILA_CMD_SAVE_ZSTENCIL_STATE = 18,
    ATTILA_CMD_RESTORE_ZSTENCIL_STATE = 19,
    ATTILA_CMD_RESET_COLOR_STATE = 20,
    ATTILA_CMD_RESET_ZSTENCIL_STATE = 21,
    ATTILA_CMD_COUNT = 22,
};

/* Events (GPUEvent). */
enum {
    ATTILA_EVENT_END_OF_FRAME = 0,
    ATTILA_EVENT_UNNAMED = 1,
    ATTILA_EVENT_COUNT = 2,
};

/* GPUStatus: the command processor's state (STATUS.GPU_STATE). */
enum {
    ATTILA_ST_RESET = 0, ATTILA_ST_READY = 1, ATTILA_ST_DRAWING = 2,
    ATTILA_ST_END_GEOMETRY = 3, ATTILA_ST_END_FRAGMENT = 4,
    ATTILA_ST_MEMORY_READ = 5, ATTILA_ST_MEMORY_WRITE = 6,
    ATTILA_ST_MEMORY_PRELOAD = 7, ATTILA_ST_SWAP = 8, ATTILA_ST_DUMPBUFFER = 9,
    ATTILA_ST_BLITTING = 10, ATTILA_ST_CLEAR_COLOR = 11, ATTILA_ST_CLEAR_Z = 12,
    ATTILA_ST_FLUSH_COLOR = 13, ATTILA_ST_FLUSH_Z = 14,
    ATTILA_ST_SAVE_STATE_COLOR = 15, ATTILA_ST_RESTORE_STATE_COLOR = 16,
    ATTILA_ST_SAVE_STATE_Z = 17, ATTILA_ST_RESTORE_STATE_Z = 18,
    ATTILA_ST_ERROR = 19,
};

/* ---- GPU registers (GPURegister ids, ATTILA ref. Registers) -------------- */

enum {
    ATTILA_REG_STATUS = 0,
    ATTILA_REG_MEMORY = 1,
    ATTILA_REG_VERTEX_PROGRAM = 2,
    ATTILA_REG_VERTEX_PROGRAM_PC = 3,
    ATTILA_REG_VERTEX_PROGRAM_SIZE = 4,
    ATTILA_REG_VERTEX_THREAD_RESOURCES = 5,
    ATTILA_REG_VERTEX_CONSTANT = 6,               /* [512] quadfloat */
    ATTILA_REG_VERTEX_OUTPUT_ATTRIBUTE = 7,       /* [16] bool */
    ATTILA_REG_VERTEX_ATTRIBUTE_MAP = 8,          /* [16] stream or 255 */
    ATTILA_REG_VERTEX_ATTRIBUTE_DEFAULT_VALUE = 9,/* [16] quadfloat */
    ATTILA_REG_STREAM_ADDRESS = 10,               /* [32] */
    ATTILA_REG_STREAM_STRIDE = 11,                /* [32] */
    ATTILA_REG_STREAM_DATA = 12,                  /* [32] ATTILA_SD_* */
    ATTILA_REG_STREAM_ELEMENTS = 13,              /* [32] 0..4 */
    ATTILA_REG_STREAM_FREQUENCY = 14,             /* [32] */
    ATTILA_REG_STREAM_START = 15,
    ATTILA_REG_STREAM_COUNT = 16,
    ATTILA_REG_STREAM_INSTANCES = 17,
    ATTILA_REG_INDEX_MODE = 18,
    ATTILA_REG_INDEX_STREAM = 19,
    ATTILA_REG_D3D9_COLOR_STREAM = 20,            /* [32] bool */
    ATTILA_REG_ATTRIBUTE_LOAD_BYPASS = 21,
    ATTILA_REG_PRIMITIVE = 22,
    ATTILA_REG_FRUSTUM_CLIPPING = 23,
    ATTILA_REG_USER_CLIP = 24,                    /* [6] quadfloat */
    ATTILA_REG_USER_CLIP_PLANE = 25,
    ATTILA_REG_LAST_GEOMETRY_REGISTER = 26,       /* marker, not a register */
    ATTILA_REG_FRONTBUFFER_ADDR = 27,
    ATTILA_REG_BACKBUFFER_ADDR = 28,
    ATTILA_REG_ZSTENCILBUFFER_ADDR = 29,
    ATTILA_REG_TEXTURE_MEM_ADDR = 30,
    ATTILA_REG_PROGRAM_MEM_ADDR = 31,
    ATTILA_REG_FACEMODE = 32,
    ATTILA_REG_CULLING = 33,
    ATTILA_REG_HIERARCHICALZ = 34,
    ATTILA_REG_EARLYZ = 35,
    ATTILA_REG_DISPLAY_X_RES = 36,
    ATTILA_REG_DISPLAY_Y_RES = 37,
    ATTILA_REG_D3D9_PIXEL_COORDINATES = 38,
    ATTILA_REG_VIEWPORT_INI_X = 39,
    ATTILA_REG_VIEWPORT_INI_Y = 40,
    ATTILA_REG_VIEWPORT_WIDTH = 41,
    ATTILA_REG_VIEWPORT_HEIGHT = 42,
    ATTILA_REG_SCISSOR_TEST = 43,
    ATTILA_REG_SCISSOR_INI_X = 44,
    ATTILA_REG_SCISSOR_INI_Y = 45,
    ATTILA_REG_SCISSOR_WIDTH = 46,
    ATTILA_REG_SCISSOR_HEIGHT = 47,
    ATTILA_REG_DEPTH_RANGE_NEAR = 48,
    ATTILA_REG_DEPTH_RANGE_FAR = 49,
    ATTILA_REG_DEPTH_SLOPE_FACTOR = 50,
    ATTILA_REG_DEPTH_UNIT_OFFSET = 51,
    ATTILA_REG_Z_BUFFER_BIT_PRECISSION = 52,
    ATTILA_REG_D3D9_DEPTH_RANGE = 53,
    ATTILA_REG_D3D9_RASTERIZATION_RULES = 54,
    ATTILA_REG_TWOSIDED_LIGHTING = 55,
    ATTILA_REG_MULTISAMPLING = 56,
    ATTILA_REG_MSAA_SAMPLES = 57,
    ATTILA_REG_INTERPOLATION = 58,                /* [16] bool */
    ATTILA_REG_FRAGMENT_INPUT_ATTRIBUTES = 59,    /* [16] bool */
    ATTILA_REG_FRAGMENT_PROGRAM = 60,
    ATTILA_REG_FRAGMENT_PROGRAM_PC = 61,
    ATTILA_REG_FRAGMENT_PROGRAM_SIZE = 62,
    ATTILA_REG_FRAGMENT_THREAD_RESOURCES = 63,
    ATTILA_REG_FRAGMENT_CONSTANT = 64,            /* [1024] quadfloat */
    ATTILA_REG_MODIFY_FRAGMENT_DEPTH = 65,
    ATTILA_REG_SHADER_PROGRAM_ADDRESS = 66,
    ATTILA_REG_SHADER_PROGRAM_SIZE = 67,
    ATTILA_REG_SHADER_PROGRAM_LOAD_PC = 68,
    ATTILA_REG_SHADER_PROGRAM_PC = 69,            /* [4] per shader target */
    ATTILA_REG_SHADER_THREAD_RESOURCES = 70,      /* [4] */
    ATTILA_REG_TEXTURE_ENABLE = 71,               /* [16] per texture unit .. */
    ATTILA_REG_TEXTURE_MODE = 72,
    ATTILA_REG_TEXTURE_ADDRESS = 73,              /* [16*13*6] unit, mip, face */
    ATTILA_REG_TEXTURE_WIDTH = 74,
    ATTILA_REG_TEXTURE_HEIGHT = 75,
    ATTILA_REG_TEXTURE_DEPTH = 76,
    ATTILA_REG_TEXTURE_WIDTH2 = 77,
    ATTILA_REG_TEXTURE_HEIGHT2 = 78,
    ATTILA_REG_TEXTURE_DEPTH2 = 79,
    ATTILA_REG_TEXTURE_BORDER = 80,
    ATTILA_REG_TEXTURE_FORMAT = 81,
    ATTILA_REG_TEXTURE_REVERSE = 82,
    ATTILA_REG_TEXTURE_D3D9_COLOR_CONV = 83,
    ATTILA_REG_TEXTURE_D3D9_V_INV = 84,
    ATTILA_REG_TEXTURE_COMPRESSION = 85,
    ATTILA_REG_TEXTURE_BLOCKING = 86,
    ATTILA_REG_TEXTURE_BORDER_COLOR = 87,
    ATTILA_REG_TEXTURE_WRAP_S = 88,
    ATTILA_REG_TEXTURE_WRAP_T = 89,
    ATTILA_REG_TEXTURE_WRAP_R = 90,
    ATTILA_REG_TEXTURE_NON_NORMALIZED = 91,
    ATTILA_REG_TEXTURE_MIN_FILTER = 92,
    ATTILA_REG_TEXTURE_MAG_FILTER = 93,
    ATTILA_REG_TEXTURE_ENABLE_COMPARISON = 94,
    ATTILA_REG_TEXTURE_COMPARISON_FUNCTION = 95,
    ATTILA_REG_TEXTURE_SRGB = 96,
    ATTILA_REG_TEXTURE_MIN_LOD = 97,
    ATTILA_REG_TEXTURE_MAX_LOD = 98,
    ATTILA_REG_TEXTURE_LOD_BIAS = 99,
    ATTILA_REG_TEXTURE_MIN_LEVEL = 100,
    ATTILA_REG_TEXTURE_MAX_LEVEL = 101,
    ATTILA_REG_TEXT_UNIT_LOD_BIAS = 102,
    ATTILA_REG_TEXTURE_MAX_ANISOTROPY = 103,      /* .. [16] per texture unit */
    ATTILA_REG_Z_BUFFER_CLEAR = 104,
    ATTILA_REG_STENCIL_BUFFER_CLEAR = 105,
    ATTILA_REG_ZSTENCIL_STATE_BUFFER_MEM_ADDR = 106,
    ATTILA_REG_STENCIL_TEST = 107,
    ATTILA_REG_STENCIL_FUNCTION = 108,
    ATTILA_REG_STENCIL_REFERENCE = 109,
    ATTILA_REG_STENCIL_COMPARE_MASK = 110,
    ATTILA_REG_STENCIL_UPDATE_MASK = 111,
    ATTILA_REG_STENCIL_FAIL_UPDATE = 112,
    ATTILA_REG_DEPTH_FAIL_UPDATE = 113,
    ATTILA_REG_DEPTH_PASS_UPDATE = 114,
    ATTILA_REG_DEPTH_TEST = 115,
    ATTILA_REG_DEPTH_FUNCTION = 116,
    ATTILA_REG_DEPTH_MASK = 117,
    ATTILA_REG_ZSTENCIL_COMPRESSION = 118,
    ATTILA_REG_COLOR_BUFFER_FORMAT = 119,
    ATTILA_REG_COLOR_COMPRESSION = 120,
    ATTILA_REG_COLOR_SRGB_WRITE = 121,
    ATTILA_REG_RENDER_TARGET_ENABLE = 122,        /* [8] per render target .. */
    ATTILA_REG_RENDER_TARGET_FORMAT = 123,
    ATTILA_REG_RENDER_TARGET_ADDRESS = 124,
    ATTILA_REG_COLOR_BUFFER_CLEAR = 125,          /* quadfloat */
    ATTILA_REG_COLOR_STATE_BUFFER_MEM_ADDR = 126,
    ATTILA_REG_COLOR_BLEND = 127,
    ATTILA_REG_BLEND_EQUATION = 128,
    ATTILA_REG_BLEND_SRC_RGB = 129,
    ATTILA_REG_BLEND_DST_RGB = 130,
    ATTILA_REG_BLEND_SRC_ALPHA = 131,
    ATTILA_REG_BLEND_DST_ALPHA = 132,
    ATTILA_REG_BLEND_COLOR = 133,                 /* quadfloat */
    ATTILA_REG_COLOR_MASK_R = 134,
    ATTILA_REG_COLOR_MASK_G = 135,
    ATTILA_REG_COLOR_MASK_B = 136,
    ATTILA_REG_COLOR_MASK_A = 137,                /* .. [8] per render target */
    ATTILA_REG_LOGICAL_OPERATION = 138,
    ATTILA_REG_LOGICOP_FUNCTION = 139,
    ATTILA_REG_MCV2_2ND_INTERLEAVING_START_ADDR = 140,
    ATTILA_REG_BLIT_INI_X = 141,
    ATTILA_REG_BLIT_INI_Y = 142,
    ATTILA_REG_BLIT_X_OFFSET = 143,
    ATTILA_REG_BLIT_Y_OFFSET = 144,
    ATTILA_REG_BLIT_WIDTH = 145,
    ATTILA_REG_BLIT_HEIGHT = 146,
    ATTILA_REG_BLIT_DST_ADDRESS = 147,
    ATTILA_REG_BLIT_DST_TX_WIDTH2 = 148,
    ATTILA_REG_BLIT_DST_TX_FORMAT = 149,
    ATTILA_REG_BLIT_DST_TX_BLOCK = 150,
    ATTILA_REG_LAST_REGISTER = 151,               /* marker, not a register */
};

/* Limits (GPU.h). */
enum {
    ATTILA_MAX_VERTEX_ATTRIBUTES = 16,
    ATTILA_MAX_STREAM_BUFFERS = 32,
    ATTILA_MAX_FRAGMENT_ATTRIBUTES = 16,
    ATTILA_MAX_TEXTURES = 16,
    ATTILA_MAX_TEXTURE_SIZE = 13,                 /* mip levels */
    ATTILA_CUBEMAP_IMAGES = 6,
    ATTILA_MAX_RENDER_TARGETS = 8,
    ATTILA_MAX_USER_CLIP_PLANES = 6,
    ATTILA_MAX_DISPLAY_RES = 4096,
    ATTILA_MAX_VERTEX_CONSTANTS = 512,
    ATTILA_MAX_FRAGMENT_CONSTANTS = 1024,
    ATTILA_SHADER_TARGETS = 4,
    ATTILA_INSTRUCTION_MEMORY = 4096,             /* instructions (2 x 2048) */
    ATTILA_ST_INACTIVE_ATTRIBUTE = 255,
};

/* ---- enumerations (ATTILA ref. enumerations; attila-sim GPU.h) ----------- */

enum {  /* StreamData */
    ATTILA_SD_UNORM8, ATTILA_SD_SNORM8, ATTILA_SD_UNORM16, ATTILA_SD_SNORM16,
    ATTILA_SD_UNORM32, ATTILA_SD_SNORM32, ATTILA_SD_FLOAT16, ATTILA_SD_FLOAT32,
    ATTILA_SD_UINT8, ATTILA_SD_SINT8, ATTILA_SD_UINT16, ATTILA_SD_SINT16,
    ATTILA_SD_UINT32, ATTILA_SD_SINT32, ATTILA_SD_COUNT,
};

enum {  /* PrimitiveMode */
    ATTILA_PRIM_TRIANGLE, ATTILA_PRIM_TRIANGLE_STRIP, ATTILA_PRIM_TRIANGLE_FAN,
    ATTILA_PRIM_QUAD, ATTILA_PRIM_QUAD_STRIP, ATTILA_PRIM_LINE,
    ATTILA_PRIM_LINE_STRIP, ATTILA_PRIM_LINE_FAN, ATTILA_PRIM_POINT,
    ATTILA_PRIM_COUNT,
};

enum { ATTILA_FACE_CW, ATTILA_FACE_CCW };
enum { ATTILA_CULL_NONE, ATTILA_CULL_FRONT, ATTILA_CULL_BACK,
       ATTILA_CULL_FRONT_AND_BACK };

enum {  /* TextureMode */
    ATTILA_TEX_1D, ATTILA_TEX_2D, ATTILA_TEX_3D, ATTILA_TEX_CUBEMAP,
};
enum { ATTILA_TXBLOCK_TEXTURE, ATTILA_TXBLOCK_FRAMEBUFFER };

enum {  /* CompareMode: note ALWAYS = 1 */
    ATTILA_CMP_NEVER, ATTILA_CMP_ALWAYS, ATTILA_CMP_LESS, ATTILA_CMP_LEQUAL,
    ATTILA_CMP_EQUAL, ATTILA_CMP_GEQUAL, ATTILA_CMP_GREATER,
    ATTILA_CMP_NOTEQUAL,
};

enum {  /* StencilUpdateFunction */
    ATTILA_STENCIL_KEEP, ATTILA_STENCIL_ZERO, ATTILA_STENCIL_REPLACE,
    ATTILA_STENCIL_INCR, ATTILA_STENCIL_DECR, ATTILA_STENCIL_INVERT,
    ATTILA_STENCIL_INCR_WRAP, ATTILA_STENCIL_DECR_WRAP,
};

enum {  /* ClampMode */
    ATTILA_CLAMP, ATTILA_CLAMP_TO_EDGE, ATTILA_REPEAT, ATTILA_CLAMP_TO_BORDER,
    ATTILA_MIRRORED_REPEAT,
};

enum {  /* FilterMode */
    ATTILA_NEAREST, ATTILA_LINEAR, ATTILA_NEAREST_MIPMAP_NEAREST,
    ATTILA_NEAREST_MIPMAP_LINEAR, ATTILA_LINEAR_MIPMAP_NEAREST,
    ATTILA_LINEAR_MIPMAP_LINEAR,
};

enum {  /* TextureFormat (ATTILA ref. Texture Formats) */
    ATTILA_FMT_ALPHA8, ATTILA_FMT_ALPHA12, ATTILA_FMT_ALPHA16,
    ATTILA_FMT_DEPTH_COMPONENT16, ATTILA_FMT_DEPTH_COMPONENT24,
    ATTILA_FMT_DEPTH_COMPONENT32, ATTILA_FMT_LUMINANCE8,
    ATTILA_FMT_LUMINANCE8_SIGNED, ATTILA_FMT_LUMINANCE12,
    ATTILA_FMT_LUMINANCE16, ATTILA_FMT_LUMINANCE4_ALPHA4,
    ATTILA_FMT_LUMINANCE6_ALPHA2, ATTILA_FMT_LUMINANCE8_ALPHA8,
    ATTILA_FMT_LUMINANCE8_ALPHA8_SIGNED, ATTILA_FMT_LUMINANCE12_ALPHA4,
    ATTILA_FMT_LUMINANCE12_ALPHA12, ATTILA_FMT_LUMINANCE16_ALPHA16,
    ATTILA_FMT_INTENSITY8, ATTILA_FMT_INTENSITY12, ATTILA_FMT_INTENSITY16,
    ATTILA_FMT_RGB332, ATTILA_FMT_RGB444, ATTILA_FMT_RGB555, ATTILA_FMT_RGB565,
    ATTILA_FMT_RGB888, ATTILA_FMT_RGB101010, ATTILA_FMT_RGB121212,
    ATTILA_FMT_RGBA2222, ATTILA_FMT_RGBA4444, ATTILA_FMT_RGBA5551,
    ATTILA_FMT_RGBA8888, ATTILA_FMT_RGBA1010102, ATTILA_FMT_R16,
    ATTILA_FMT_RG16, ATTILA_FMT_RGBA16, ATTILA_FMT_R16F, ATTILA_FMT_RG16F,
    ATTILA_FMT_RGBA16F, ATTILA_FMT_R32F, ATTILA_FMT_RG32F, ATTILA_FMT_RGBA32F,
    ATTILA_FMT_COUNT,
};

enum {  /* TextureCompression */
    ATTILA_TC_NONE, ATTILA_TC_DXT1_RGB, ATTILA_TC_DXT1_RGBA, ATTILA_TC_DXT3_RGBA,
    ATTILA_TC_DXT5_RGBA, ATTILA_TC_LATC1, ATTILA_TC_LATC1_SIGNED,
    ATTILA_TC_LATC2, ATTILA_TC_LATC2_SIGNED,
};

enum {  /* BlendEquation */
    ATTILA_BLEND_ADD, ATTILA_BLEND_SUBTRACT, ATTILA_BLEND_REVERSE_SUBTRACT,
    ATTILA_BLEND_MIN, ATTILA_BLEND_MAX,
};

enum {  /* BlendFunction */
    ATTILA_BF_ZERO, ATTILA_BF_ONE, ATTILA_BF_SRC_COLOR,
    ATTILA_BF_ONE_MINUS_SRC_COLOR, ATTILA_BF_DST_COLOR,
    ATTILA_BF_ONE_MINUS_DST_COLOR, ATTILA_BF_SRC_ALPHA,
    ATTILA_BF_ONE_MINUS_SRC_ALPHA, ATTILA_BF_DST_ALPHA,
    ATTILA_BF_ONE_MINUS_DST_ALPHA, ATTILA_BF_CONSTANT_COLOR,
    ATTILA_BF_ONE_MINUS_CONSTANT_COLOR, ATTILA_BF_CONSTANT_ALPHA,
    ATTILA_BF_ONE_MINUS_CONSTANT_ALPHA, ATTILA_BF_SRC_ALPHA_SATURATE,
};

/* LogicOpMode: the GL order, 0 CLEAR .. 15 SET (ATTILA ref. Color/Blend
 * Registers, LogicOperation). */
enum { ATTILA_LOGICOP_CLEAR = 0, ATTILA_LOGICOP_COPY = 3, ATTILA_LOGICOP_SET = 15 };

/* ---- shader instructions (attila-sim ShaderInstruction.cpp) -------------- */

/*
 * 16 bytes = lo64 | hi64 << 64, both little-endian.
 * lo64: [7:0] opcode [8] end [9] waitpoint [10] predicated [11] invertpred
 *       [16:12] predreg [19:17] op1bank [20] op1neg [21] op1abs
 *       [24:22] op2bank [25] op2neg [26] op2abs [29:27] op3bank [30] op3neg
 *       [31] op3abs [34:32] resbank [35] sat [39:36] mask (x=8 y=4 z=2 w=1)
 *       [40] relmode [42:41] reladreg [44:43] reladcomp [53:45] reloffset
 * hi64: [7:0] op1reg [15:8] op1swz [23:16] resreg then either
 *       [31:24] op2reg [39:32] op2swz [47:40] op3reg [55:48] op3swz
 *       or [63:32] a 32-bit immediate (op2 bank IMM, JMP offset).
 * Swizzle: (c0 << 6) | (c1 << 4) | (c2 << 2) | c3, x=0 y=1 z=2 w=3.
 */
enum {
    ATTILA_SH_NOP = 0x00, ATTILA_SH_ADD = 0x01, ATTILA_SH_ADDI = 0x02,
    ATTILA_SH_ARL = 0x03, ATTILA_SH_ANDP = 0x04, ATTILA_SH_COS = 0x07,
    ATTILA_SH_DP3 = 0x08, ATTILA_SH_DP4 = 0x09, ATTILA_SH_DPH = 0x0A,
    ATTILA_SH_DST = 0x0B, ATTILA_SH_EX2 = 0x0C, ATTILA_SH_EXP = 0x0D,
    ATTILA_SH_FLR = 0x0E, ATTILA_SH_FRC = 0x0F, ATTILA_SH_LG2 = 0x10,
    ATTILA_SH_LIT = 0x11, ATTILA_SH_LOG = 0x12, ATTILA_SH_MAD = 0x13,
    ATTILA_SH_MAX = 0x14, ATTILA_SH_MIN = 0x15, ATTILA_SH_MOV = 0x16,
    ATTILA_SH_MUL = 0x17, ATTILA_SH_MULI = 0x18, ATTILA_SH_RCP = 0x19,
    ATTILA_SH_RSQ = 0x1B, ATTILA_SH_SETPEQ = 0x1C, ATTILA_SH_SETPGT = 0x1D,
    ATTILA_SH_SGE = 0x1E, ATTILA_SH_SETPLT = 0x1F, ATTILA_SH_SIN = 0x20,
    ATTILA_SH_STPEQI = 0x21, ATTILA_SH_SLT = 0x22, ATTILA_SH_STPGTI = 0x23,
    ATTILA_SH_STPLTI = 0x24, ATTILA_SH_TXL = 0x25, ATTILA_SH_TEX = 0x26,
    ATTILA_SH_TXB = 0x27, ATTILA_SH_TXP = 0x28, ATTILA_SH_KIL = 0x29,
    ATTILA_SH_KLS = 0x2A, ATTILA_SH_ZXP = 0x2B, ATTILA_SH_ZXS = 0x2C,
    ATTILA_SH_CMP = 0x2D, ATTILA_SH_CMPKIL = 0x2E, ATTILA_SH_CHS = 0x2F,
    ATTILA_SH_LDA = 0x30, ATTILA_SH_FXMUL = 0x31, ATTILA_SH_FXMAD = 0x32,
    ATTILA_SH_FXMAD2 = 0x33, ATTILA_SH_DDX = 0x34, ATTILA_SH_DDY = 0x35,
    ATTILA_SH_JMP = 0x36, ATTILA_SH_END = 0x37,
    ATTILA_SH_OPCODES = 0x38,
};

enum {  /* register banks */
    ATTILA_BANK_IN = 0, ATTILA_BANK_OUT = 1, ATTILA_BANK_PARAM = 2,
    ATTILA_BANK_TEMP = 3, ATTILA_BANK_ADDR = 4, ATTILA_BANK_PARAM2 = 5,
    ATTILA_BANK_IMM = 6,
};

#define ATTILA_SWZ_XYZW 0x1B
#define ATTILA_SH_INSTR_SIZE 16

#endif
