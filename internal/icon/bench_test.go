package icon

import "testing"

func BenchmarkDraw256(b *testing.B) {
	for b.Loop() {
		Draw(256)
	}
}
