/**
 * A server's Prometheus {@code /metrics} page: {@link dev.fakbattery.wire.PromText} reads the text format,
 * {@link dev.fakbattery.core.metrics.MetricsScrape} reads a page (or says why it could not),
 * {@link dev.fakbattery.core.metrics.EngineMetrics} writes what an engine (vLLM, SGLang, llama.cpp, the engine double)
 * did during an arm under its own names.
 *
 * @since 0.3
 */
package dev.fakbattery.core.metrics;
