package dev.fakbattery.core.load;

import java.util.Arrays;

/** A growable list of primitive doubles, for per-chunk gaps. Not thread-safe. */
final class DoubleList {

	private double[] values = new double[32];

	private int size;

	void add(double value) {
		if (size == values.length) {
			values = Arrays.copyOf(values, size * 2);
		}
		values[size++] = value;
	}

	int size() {
		return size;
	}

	double[] toArray() {
		return Arrays.copyOf(values, size);
	}
}
