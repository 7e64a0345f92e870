#!/usr/bin/env bash
# A training round on one machine with many cores and a GPU, in one go (session 21, models v13):
# fresh world scenes rendered and mined by every core at once, then networks trained side by side, each fed
# by its own batch workers: A continues the shipped classifier, B starts a classifier from nothing, D
# continues the shipped detector (v11's recipe: quarter turns, BatchNorm frozen).
# Needs the compact copy of `datasets.carry pack` (the real train photos and the face cache) in $CARRY.
# Knobs (environment): JOBS scene folders of SCENES scenes, LONE_JOBS of LONE lone-tile scenes, DEVICE,
# RUNS (any of a b d), WORKERS per run, EPOCHS_A / EPOCHS_B / EPOCHS_D, MAX_MINUTES (no epoch starts after this many
# minutes of training), STOP_AT (seconds after the start by which training must end), RESULT (where
# checkpoints and logs go), INIT_MODELS (the ONNX models run A continues and the mining reads: models/),
# EXTRA (more training options, e.g. --limit 20 for a quick check), CROP_B (the crop run B's classifier
# reads, default 64x48; a larger one, e.g. 96x72, sees more of each glyph).
#
#   python3 -m datasets.carry pack .carry && bash datasets/many_cores_round.sh
# The checkpoints come back as float networks: `datasets.export_onnx`, then `datasets.quantize --source`
# makes the runtime's 8-bit classifier (models/MODEL_CARD.md, v14). `datasets.onnx_init` reads a quantized
# model's float original from INIT_MODELS/float/.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-python3}
CARRY=${CARRY:-.carry}
JOBS=${JOBS:-14}
SCENES=${SCENES:-600}
LONE_JOBS=${LONE_JOBS:-2}
LONE=${LONE:-1500}
DEVICE=${DEVICE:-cuda}
WORKERS=${WORKERS:-7}
RUNS=${RUNS:-a b}
EPOCHS_A=${EPOCHS_A:-2}
EPOCHS_B=${EPOCHS_B:-14}
EPOCHS_D=${EPOCHS_D:-3}
CROP_B=${CROP_B:-64x48}
MAX_MINUTES=${MAX_MINUTES:-4}
STOP_AT=${STOP_AT:-520}
RESULT=${RESULT:-runs/round_result}
INIT_MODELS=${INIT_MODELS:-models}
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 MAHJONG_NTS_DATA=$PWD/runs/data
start=$(date +%s)
since() { echo "$(($(date +%s) - start)) s"; }
mkdir -p runs "$RESULT"

# what the round needs, checked before any long step
$PY -c "import cv2, numpy, onnx, onnxruntime, torch; print('torch', torch.__version__)
assert '$DEVICE' != 'cuda' or torch.cuda.is_available(), 'no GPU'"
$PY -m datasets.carry unpack "$CARRY" runs --jobs "$(nproc)"
$PY -m datasets.onnx_init --models "$INIT_MODELS" --out runs/init_shipped
echo "unpacked and initialised: $(since)"

synthetic=()
for k in $(seq 0 $((JOBS - 1))); do
    folder=runs/round_scenes$k
    synthetic+=(--synthetic "$folder")
    ($PY -m datasets.world_scenes --out "$folder" --count "$SCENES" --split train --seed $((40 + k)) \
        && $PY -m datasets.mine_negatives "$folder" --models "$INIT_MODELS") >"$RESULT/scenes$k.log" 2>&1 &
done
for k in $(seq 0 $((LONE_JOBS - 1))); do
    folder=runs/round_lone$k
    synthetic+=(--synthetic "$folder")
    $PY -m datasets.world_scenes --out "$folder" --count "$LONE" --split train --seed $((60 + k)) --kinds lone \
        >"$RESULT/lone$k.log" 2>&1 &
done
wait
grep -h "artworks (train)" "$RESULT/scenes0.log" | cut -c1-400
tail -qn1 "$RESULT"/scenes*.log
echo "scenes rendered and mined: $(since)"

common=(--width 48 --not-a-tile "${synthetic[@]}" --oversample 4 --back-frac 0.04 --strip-frac 0.25 --pad 0.175
    --none-frac 0.06 --real-repeat 2 --device "$DEVICE" --workers "$WORKERS" --max-minutes "$MAX_MINUTES" --threads 1
    ${EXTRA:-})
left=$((STOP_AT - $(date +%s) + start))
if [[ " $RUNS " == *" a "* ]]; then
    timeout "$left" $PY -m datasets.train_classifier "${common[@]}" --init runs/init_shipped/classifier.pt \
        --freeze-bn --epochs "$EPOCHS_A" --lr 2e-4 --out runs/round_a --seed 31 >"$RESULT/train_a.out" 2>&1 &
fi
if [[ " $RUNS " == *" b "* ]]; then
    timeout "$left" $PY -m datasets.train_classifier "${common[@]}" --epochs "$EPOCHS_B" --lr 3e-3 --batch 256 \
        --crop "$CROP_B" --out runs/round_b --seed 32 >"$RESULT/train_b.out" 2>&1 &
fi
if [[ " $RUNS " == *" d "* ]]; then
    timeout "$left" $PY -m datasets.train_detector --init runs/init_shipped/detector.pt --freeze-bn \
        "${synthetic[@]}" --epochs "$EPOCHS_D" --lr 1.5e-4 --turn-prob 0.3 --eval-every 1 --device "$DEVICE" \
        --workers "$WORKERS" --threads 1 --out runs/round_d --seed 33 ${EXTRA:-} >"$RESULT/train_d.out" 2>&1 &
fi
wait || true
echo "trained: $(since)"
for run in $RUNS; do
    cp "runs/round_$run/log.txt" "$RESULT/log_$run.txt" || true
    for ck in $(ls -v runs/round_$run/epoch*.pt 2>/dev/null | tail -n 3); do cp "$ck" "$RESULT/${run}_$(basename "$ck")"; done
done
# run A continues the shipped classifier: its last epoch also mixed half and half with where it started
# (`datasets.blend_weights`, session 36), to be judged beside it
if [[ " $RUNS " == *" a "* ]] && last_a=$(ls -v runs/round_a/epoch*.pt 2>/dev/null | tail -n 1) && [[ -n "$last_a" ]]; then
    $PY -m datasets.blend_weights --base runs/init_shipped/classifier.pt --tuned "$last_a" --share 0.5 \
        --out "$RESULT/a_mixed50.pt" || true
fi
ls -la "$RESULT"
