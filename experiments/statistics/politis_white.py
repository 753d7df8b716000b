"""Reference values for harness-core's BlockLengthTests.matchesReference.

An independent NumPy transcription of Politis and White (2004), "Automatic block-length selection for the dependent
bootstrap", with the correction of Patton, Politis and White (2009): the circular block bootstrap's optimal block
length. Written apart from BlockLength.java (vectorised, from the papers' formulas), so that the Java test compares
two transcriptions. Run: python3 politis_white.py (NumPy only); it prints the values the test pins.
"""
import math

import numpy as np

GOLDEN = 0.6180339887498949


def politis_white(x):
    """(block length, m) for the circular block bootstrap; m is None when no run of K small autocorrelations exists."""
    n = len(x)
    if n < 4:
        return 1.0, None
    e = x - x.mean()
    k_n = max(5, math.ceil(math.sqrt(math.log10(n))))
    max_lag = min(n - 1, math.ceil(math.sqrt(n)) + k_n)
    acv = np.array([np.dot(e[k:], e[:n - k]) / n for k in range(max_lag + 1)])
    rho = np.abs(acv / acv[0])
    critical = 2 * math.sqrt(math.log10(n) / n)
    m = None
    for c in range(0, max_lag - k_n + 1):
        if np.all(rho[c + 1:c + k_n + 1] < critical):
            m = c
            break
    window = max_lag if m is None else min(2 * max(m, 1), max_lag)
    lags = np.arange(1, window + 1)
    t = lags / window
    lam = np.where(t <= 0.5, 1.0, 2 * (1 - t))
    big_g = 2 * np.sum(lam * lags * acv[1:window + 1])
    g = acv[0] + 2 * np.sum(lam * acv[1:window + 1])
    b = (2 * big_g * big_g / ((4 / 3) * g * g)) ** (1 / 3) * n ** (1 / 3)
    upper = math.ceil(min(3 * math.sqrt(n), n / 3))
    return max(1.0, min(b, upper)), m


def minstd_ar1(n, phi, seed=42):
    """x[i] = phi x[i-1] + u[i], u MINSTD's uniforms minus 1/2 (the same doubles as the Java test's)."""
    state, previous, out = seed, 0.0, np.zeros(n)
    for i in range(n):
        state = (48271 * state) % 2147483647
        previous = phi * previous + (state / 2147483647 - 0.5)
        out[i] = previous
    return out


if __name__ == "__main__":
    for phi, n in ((0.6, 300), (0.0, 200), (0.9, 1000)):
        print("AR(1) over MINSTD, phi", phi, "n", n, repr(politis_white(minstd_ar1(n, phi))))
    golden = np.array([(i * GOLDEN) % 1.0 + math.sin(0.05 * i) for i in range(400)])
    print("golden ratio + slow sine, n 400", repr(politis_white(golden)))
