/**
 * What the load rungs send ({@code workload}): {@link dev.fakbattery.api.workload.FixedWorkload} (the seed's
 * counting prompt, the default), {@link dev.fakbattery.api.workload.RandomWorkload},
 * {@link dev.fakbattery.api.workload.ShareGptWorkload}, {@link dev.fakbattery.api.workload.PrefixWorkload} and
 * {@link dev.fakbattery.api.workload.AgenticWorkload}, each seeded and recorded with its parameters in every artifact;
 * {@link dev.fakbattery.api.workload.Workloads} resolves one from the configuration. Names against vLLM, SGLang,
 * GuideLLM and AIPerf: {@code harness-api/METRICS.md}.
 *
 * @since 0.3
 */
package dev.fakbattery.api.workload;
