#include "textflag.h"

// The vector kernels of round2Fast (see frame.go and round_amd64.go): four
// values a step, each lane doing what round2Fast does to one value. The
// sign bit is taken off and put back, the magnitude a widened to float64,
// n = trunc(a·100 + 0.5) (VCVTTPD2DQ: an int32, 0x80000000 for a NaN, an
// infinity or anything past 2^31, all of which are at or above
// round2FastBound), then n·0.01 narrowed to float32. Every lane's n is
// ored into the result, as the Go kernels do.

// bswap32 reverses the bytes of each 32-bit lane: the frame's values are
// big-endian.
DATA bswap32<>+0(SB)/8, $0x0405060700010203
DATA bswap32<>+8(SB)/8, $0x0c0d0e0f08090a0b
GLOBL bswap32<>(SB), RODATA|NOPTR, $16

DATA absMask<>+0(SB)/8, $0x7fffffff7fffffff
DATA absMask<>+8(SB)/8, $0x7fffffff7fffffff
GLOBL absMask<>(SB), RODATA|NOPTR, $16

DATA hundred<>+0(SB)/8, $0x4059000000000000
GLOBL hundred<>(SB), RODATA|NOPTR, $8

DATA half<>+0(SB)/8, $0x3fe0000000000000
GLOBL half<>(SB), RODATA|NOPTR, $8

DATA hundredth<>+0(SB)/8, $0x3f847ae147ae147b
GLOBL hundredth<>(SB), RODATA|NOPTR, $8

// SETUP loads the constants: X9 byte order, X10 magnitude mask, Y11 100,
// Y12 0.5, Y13 0.01; X8 is the or of the n's.
#define SETUP \
	VMOVDQU bswap32<>(SB), X9 \
	VMOVDQU absMask<>(SB), X10 \
	VBROADCASTSD hundred<>(SB), Y11 \
	VBROADCASTSD half<>(SB), Y12 \
	VBROADCASTSD hundredth<>(SB), Y13 \
	VPXOR X8, X8, X8

// ROUND rounds the four big-endian values in X0 into X0.
#define ROUND \
	VPSHUFB X9, X0, X0 \
	VANDNPS X0, X10, X1 \
	VANDPS X10, X0, X0 \
	VCVTPS2PD X0, Y0 \
	VMULPD Y11, Y0, Y0 \
	VADDPD Y12, Y0, Y0 \
	VCVTTPD2DQY Y0, X0 \
	VPOR X0, X8, X8 \
	VCVTDQ2PD X0, Y0 \
	VMULPD Y13, Y0, Y0 \
	VCVTPD2PSY Y0, X0 \
	VORPS X1, X0, X0

// ORLANES ors X8's four lanes into AX, using R10.
#define ORLANES \
	VMOVD X8, AX \
	VPEXTRD $1, X8, R10 \
	ORL R10, AX \
	VPEXTRD $2, X8, R10 \
	ORL R10, AX \
	VPEXTRD $3, X8, R10 \
	ORL R10, AX

// ROW rounds the k (CX) fields at (SI) into (DI): four at a time, and the
// last one to three either as four ending at the row's last field (when
// there were four before them: those are written again with the same
// values) or read and written one lane at a time, so that no byte past the
// fields is read and no value past them written. It uses DX and R11.
#define ROW \
	XORQ DX, DX \
	MOVQ CX, R11 \
	CMPQ R11, $4 \
	JLT  small \
quad: \
	VMOVDQU (SI)(DX*4), X0 \
	ROUND \
	VMOVUPS X0, (DI)(DX*4) \
	ADDQ $4, DX \
	SUBQ $4, R11 \
	CMPQ R11, $4 \
	JGE  quad \
	TESTQ R11, R11 \
	JZ   rowdone \
	LEAQ -4(CX), DX \
	VMOVDQU (SI)(DX*4), X0 \
	ROUND \
	VMOVUPS X0, (DI)(DX*4) \
	JMP  rowdone \
small: \
	CMPQ R11, $2 \
	JGT  three \
	JEQ  two \
	VMOVD (SI), X0 \
	ROUND \
	VMOVSS X0, (DI) \
	JMP  rowdone \
two: \
	VMOVQ (SI), X0 \
	ROUND \
	VMOVQ X0, (DI) \
	JMP  rowdone \
three: \
	VMOVQ (SI), X0 \
	VPINSRD $2, 8(SI), X0, X0 \
	ROUND \
	VMOVQ X0, (DI) \
	VEXTRACTPS $2, X0, 8(DI) \
rowdone:

// func roundStepsAVX(v *float32, vs uintptr, q *byte, qs uintptr, rows uintptr, k uintptr) uint32
TEXT ·roundStepsAVX(SB), NOSPLIT, $0-52
	MOVQ v+0(FP), DI
	MOVQ vs+8(FP), R8
	SHLQ $2, R8
	MOVQ q+16(FP), SI
	MOVQ qs+24(FP), R9
	MOVQ rows+32(FP), BX
	MOVQ k+40(FP), CX
	SETUP
	TESTQ BX, BX
	JZ   stepsdone
stepsrow:
	ROW
	ADDQ R8, DI
	ADDQ R9, SI
	DECQ BX
	JNZ  stepsrow
stepsdone:
	ORLANES
	VZEROUPPER
	MOVL AX, ret+48(FP)
	RET

// func roundListAVX(v *float32, vlen uintptr, q *byte, qlen uintptr, at *rowAt, n uintptr, k uintptr) uint32
//
// A row whose fields or values would lie past q's qlen bytes or v's vlen
// values stops the loop with the result 0xffffffff: not on the fast path.
TEXT ·roundListAVX(SB), NOSPLIT, $0-60
	MOVQ v+0(FP), R12
	MOVQ vlen+8(FP), R9
	MOVQ q+16(FP), R13
	MOVQ qlen+24(FP), R10
	MOVQ at+32(FP), BX
	MOVQ n+40(FP), R8
	MOVQ k+48(FP), CX
	SETUP
	TESTQ R8, R8
	JZ   listdone
listrow:
	MOVLQZX 4(BX), DI
	LEAQ (DI)(CX*1), AX
	CMPQ AX, R9
	JHI  outside
	MOVLQZX 0(BX), SI
	LEAQ (SI)(CX*4), AX
	CMPQ AX, R10
	JHI  outside
	LEAQ (R12)(DI*4), DI
	ADDQ R13, SI
	ROW
	ADDQ $12, BX
	DECQ R8
	JNZ  listrow
listdone:
	ORLANES
	VZEROUPPER
	MOVL AX, ret+56(FP)
	RET
outside:
	VZEROUPPER
	MOVL $0xffffffff, ret+56(FP)
	RET
