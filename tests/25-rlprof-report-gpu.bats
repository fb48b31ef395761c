#!/usr/bin/env bats
# rlprof-report: GPU rows of a hand-made trace (gpu-streams.csv), worked
# out by hand.  Process 500 lives 0..20 us; step 1..19 us holds forward
# 2..8 and backward 10..16.  CUDA calls (cuda_api rows with correlation
# ids): 1 and 2 launch gemm (stream 7, 3..7) and relu (stream 8, 4..6) in
# forward, 3 a copy 7..8; 4 launches gemm 11..14 and 5 a memset (stream 8)
# 11..12.5 in backward; 6 is a synchronize 16..18.5 in step; kernel
# "orphan" 17..17.5 has no call in the trace.

load helpers

T=$TOP/tests/data/report/gpu-streams.csv

@test "--by kernel: per kernel, per operation, linked through correlation ids" {
	run rlprof-report -f csv --by kernel "$T"
	assert_success
	assert_output "pid,operation,kernel,category,calls,total_ns,mean_ns,max_ns
500,[all],gemm,kernel,2,7000,3500,4000
500,[all],relu,kernel,1,2000,2000,2000
500,[all],memset,memset,1,1500,1500,1500
500,[all],memcpy HtoD,memcpy,1,1000,1000,1000
500,[all],orphan,kernel,1,500,500,500
500,forward,[all],,3,7000,2333,4000
500,forward,gemm,kernel,1,4000,4000,4000
500,forward,relu,kernel,1,2000,2000,2000
500,forward,memcpy HtoD,memcpy,1,1000,1000,1000
500,backward,[all],,2,4500,2250,3000
500,backward,gemm,kernel,1,3000,3000,3000
500,backward,memset,memset,1,1500,1500,1500
500,[unlinked],[all],,1,500,500,500
500,[unlinked],orphan,kernel,1,500,500,500"
}

@test "--by kernel: the same rows from JSON Lines input, and as JSON" {
	python3 -c '
import csv, json, sys
for r in csv.DictReader(open(sys.argv[1])):
    o = {}
    for k, v in r.items():
        if v != "":
            o[k] = int(v) if k in ("pid", "tid", "start_ns", "end_ns", "device", "stream", "correlation", "value") else v
    print(json.dumps(o))' "$T" > t.jsonl
	run rlprof-report -f json --by kernel t.jsonl
	assert_success
	run python3 -c '
import json, sys
rows = json.loads(sys.argv[1])
print(len(rows), rows[5])' "$output"
	assert_output "14 {'pid': 500, 'operation': 'forward', 'kernel': '[all]', 'category': None, 'calls': 3, 'total_ns': 7000, 'mean_ns': 2333, 'max_ns': 4000}"
}

@test "--by kernel: a call outside every operation is [unannotated]" {
	sed '/^op,/d' "$T" > t.csv
	run rlprof-report -f csv --by kernel t.csv
	assert_success
	assert_line "500,[unannotated],[all],,5,11500,2300,4000"
}

@test "--by kernel with --tree, --compare or svg: usage error" {
	run rlprof-report --by kernel --tree "$T"
	assert_failure 2
	run rlprof-report --by kernel -c "$T" "$T"
	assert_failure 2
	run rlprof-report --by kernel -f svg "$T"
	assert_failure 2
	assert_line --index 0 "rlprof-report: error: --by kernel gives table, csv, json or jsonl, without --compare or --tree"
}

@test "--format csv: GPU rows in the breakdown, CPU+GPU where calls overlap kernels" {
	run rlprof-report -f csv "$T"
	assert_success
	# forward 2..8: cuda_api 2..3.5, the GPU busy 3..8 (gemm, relu, copy).
	assert_line --partial "500,forward,CPU,cuda_api,1.000,5.00,"
	assert_line --partial "500,forward,CPU+GPU,cuda_api,0.500,2.50,"
	assert_line --partial "500,forward,CPU+GPU,native,4.500,22.50,"
	# backward 10..16: cuda_api 10..11, GPU 11..14 (gemm with the memset).
	assert_line --partial "500,backward,CPU,cuda_api,1.000,5.00,"
	assert_line --partial "500,backward,CPU+GPU,native,3.000,15.00,"
	assert_line --partial "500,backward,CPU,native,2.000,10.00,"
	# step: the synchronize 16..18.5 with orphan 17..17.5 on the GPU.
	assert_line --partial "500,step,CPU,cuda_api,2.000,10.00,"
	assert_line --partial "500,step,CPU+GPU,cuda_api,0.500,2.50,"
	assert_line --partial "500,step,CPU,native,3.500,17.50,"
}

@test "--format json: busy fraction beside the nvidia-smi figure" {
	run rlprof-report -f json "$T"
	assert_success
	# Busy: the union 3..8, 11..14, 17..17.5 = 8.5 us of the 18 us span;
	# one sampling window, in which a kernel ran: nvidia-smi says 100 %.
	run python3 -c 'import json, sys; print(json.loads(sys.argv[1])["gpus"])' "$output"
	assert_output "[{'device': 0, 'span_us': 18.0, 'busy_us': 8.5, 'busy_fraction': 0.472222, 'smi_windows_1_6s': 1, 'smi_active_1_6s': 1, 'smi_fraction_1_6s': 1.0, 'smi_windows_1s': 1, 'smi_active_1s': 1, 'smi_fraction_1s': 1.0}]"
}

@test "--format table: utilisation as nvidia-smi shows it, and its inflation" {
	run rlprof-report -f table "$T"
	assert_success
	assert_line "  busy (kernels, copies, sets)    47.22 %  (8.50 us)"
	assert_line "  nvidia-smi, 1/6 s windows      100.00 %  (2.12x the busy time)"
}
