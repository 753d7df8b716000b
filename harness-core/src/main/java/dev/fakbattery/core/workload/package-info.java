/**
 * What the load rungs send ({@code workload}): {@link dev.fakbattery.core.workload.FixedWorkload} (fak's
 * counting prompt, the default), {@link dev.fakbattery.core.workload.RandomWorkload},
 * {@link dev.fakbattery.core.workload.ShareGptWorkload}, {@link dev.fakbattery.core.workload.PrefixWorkload} and
 * {@link dev.fakbattery.core.workload.AgenticWorkload}, each seeded and recorded with its parameters in every artifact;
 * {@link dev.fakbattery.core.workload.Workloads} resolves one from the configuration. Names against vLLM, SGLang,
 * GuideLLM and AIPerf: {@code harness-api/METRICS.md}.
 *
 * @since 0.3
 */
package dev.fakbattery.core.workload;
