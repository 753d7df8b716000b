package dev.fakbattery.api;

import java.util.Objects;

/**
 * A measurement is either a value with unit and source, or {@link Pending}: what is missing and how
 * to provide it. There is no third form: a number that was not measured cannot be expressed.
 *
 * @since 0.1
 */
public sealed interface Measurement permits Measurement.Measured, Measurement.Pending {

	String name();

	static Measured of(String name, double value, String unit, String source) {
		return new Measured(name, value, unit, source);
	}

	static Pending pending(String name, String missing, String howToProvide) {
		return new Pending(name, missing, howToProvide);
	}

	/**
	 * A measured value.
	 * @param source where the value came from (endpoint, file, computation)
	 */
	record Measured(String name, double value, String unit, String source) implements Measurement {
		public Measured {
			Objects.requireNonNull(name, "name");
			Objects.requireNonNull(unit, "unit");
			Objects.requireNonNull(source, "source");
			if (!Double.isFinite(value)) {
				throw new IllegalArgumentException("measurement " + name + " is not a finite number: " + value);
			}
		}
	}

	/**
	 * A required measurement that is missing.
	 * @param missing what is missing, for example {@code raw engine base URL}
	 * @param howToProvide the fix, for example {@code set -Dbase.url=http://HOST:8000/v1}
	 */
	record Pending(String name, String missing, String howToProvide) implements Measurement {
		public Pending {
			Objects.requireNonNull(name, "name");
			Objects.requireNonNull(missing, "missing");
			Objects.requireNonNull(howToProvide, "howToProvide");
		}

		/** {@code <what> (<how to provide it>)}, the text after {@code PENDING_MEASUREMENT: }. */
		public String reason() {
			return missing + " (" + howToProvide + ")";
		}
	}
}
