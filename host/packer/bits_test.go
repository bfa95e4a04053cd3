package packer

import "math"

func f32bits(b uint64) float32 { return math.Float32frombits(uint32(b)) }
func f64bits(b uint64) float64 { return math.Float64frombits(b) }
