package quantile

import "testing"

func TestBucket(t *testing.T) {
	counts := []uint64{2, 0, 5, 3} // 10 values
	for _, tc := range []struct {
		q    float64
		want int
	}{
		{0.01, 0}, {0.2, 0}, {0.21, 2}, {0.7, 2}, {0.71, 3}, {1, 3},
	} {
		if got := Bucket(counts, 10, tc.q); got != tc.want {
			t.Errorf("q %v: bucket %d, want %d", tc.q, got, tc.want)
		}
	}
	if got := Bucket(counts, 0, 0.5); got != -1 {
		t.Errorf("no values: bucket %d, want -1", got)
	}
	if got := Bucket([]uint64{1, 1}, 5, 0.9); got != 1 {
		t.Errorf("counts short of the total: bucket %d, want the last", got)
	}
}
