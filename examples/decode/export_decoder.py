"""Writes OUT_DIR/decoder_step.onnx: one decode step of a small GPT-style
decoder (token + position embeddings, pre-LayerNorm blocks of multi-head
attention and a GELU MLP, tied-free LM head) over a static KV cache.

The cache is an input, not state: k_cache / v_cache [layers, max_len, hidden]
hold the keys and values of the earlier positions, `mask` [1, max_len + 1]
is 0 where a position is valid and -1e4 where not (its last entry, the
current token, is always 0). The step returns the logits and this token's
keys and values [layers, 1, hidden]; the caller copies them into row `pos` of
its cache. A static cache keeps every execution the same shape, so one
compiled program serves every step of every request.

Usage: export_decoder.py OUT_DIR [--hidden 256] [--layers 2] [--heads 4]
                         [--max-len 64] [--vocab 512]
Random weights, seed 0. Also writes OUT_DIR/decoder_step.ref.txt: a prompt
and the greedy tokens torch produces for it ("prompt 3 14 15 92" and
"tokens ..." lines), so the sample can check itself."""
import argparse
import math
import os
import sys

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.hidden = hidden
        self.hd = hidden // heads
        self.ln1 = nn.LayerNorm(hidden)
        self.q = nn.Linear(hidden, hidden)
        self.k = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, hidden)
        self.proj = nn.Linear(hidden, hidden)
        self.ln2 = nn.LayerNorm(hidden)
        self.fc = nn.Linear(hidden, 4 * hidden)
        self.out = nn.Linear(4 * hidden, hidden)

    def forward(self, x, k_cache, v_cache, mask):
        # x [1, H]; caches [T, H]; mask [1, T + 1].
        hidden, hd = self.hidden, self.hd
        h = self.ln1(x)
        q, k, v = self.q(h), self.k(h), self.v(h)
        keys = torch.cat([k_cache, k], dim=0)  # [T + 1, H]
        values = torch.cat([v_cache, v], dim=0)
        qh = q.reshape(self.heads, 1, hd)
        kh = keys.reshape(-1, self.heads, hd).permute(1, 2, 0)  # [nh, hd, T+1]
        vh = values.reshape(-1, self.heads, hd).permute(1, 0, 2)  # [nh, T+1, hd]
        scores = torch.matmul(qh, kh) * (1.0 / math.sqrt(hd)) + mask
        att = torch.matmul(torch.softmax(scores, dim=-1), vh)  # [nh, 1, hd]
        x = x + self.proj(att.reshape(1, hidden))
        x = x + self.out(torch.nn.functional.gelu(self.fc(self.ln2(x))))
        return x, k, v


class DecoderStep(nn.Module):
    def __init__(self, hidden, layers, heads, max_len, vocab):
        super().__init__()
        self.wte = nn.Embedding(vocab, hidden)
        self.wpe = nn.Embedding(max_len + 1, hidden)
        self.blocks = nn.ModuleList(Block(hidden, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(hidden)
        self.head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, token, pos, mask, k_cache, v_cache):
        x = self.wte(token) + self.wpe(pos)  # [1, H]
        ks, vs = [], []
        for i, block in enumerate(self.blocks):
            x, k, v = block(x, k_cache[i], v_cache[i], mask)
            ks.append(k)
            vs.append(v)
        logits = self.head(self.ln_f(x))
        return logits, torch.stack(ks), torch.stack(vs)


def greedy(model, prompt, steps, layers, max_len, hidden):
    """The tokens a decode loop over the cache produces: the prompt fed one
    token at a time, then `steps` tokens chosen by argmax."""
    kc = torch.zeros(layers, max_len, hidden)
    vc = torch.zeros(layers, max_len, hidden)
    out, token = [], prompt[0]
    for pos in range(len(prompt) + steps - 1):
        if pos < len(prompt):
            token = prompt[pos]
        mask = torch.full((1, max_len + 1), -1e4)
        mask[0, :pos] = 0
        mask[0, max_len] = 0
        logits, k, v = model(torch.tensor([token]), torch.tensor([pos]), mask,
                             kc, vc)
        kc[:, pos] = k[:, 0]
        vc[:, pos] = v[:, 0]
        if pos >= len(prompt) - 1:
            token = int(logits.argmax())
            out.append(token)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--max-len", type=int, default=64)
    p.add_argument("--vocab", type=int, default=512)
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    torch.manual_seed(0)
    model = DecoderStep(a.hidden, a.layers, a.heads, a.max_len, a.vocab).eval()
    args = (torch.tensor([1]), torch.tensor([0]),
            torch.zeros(1, a.max_len + 1),
            torch.zeros(a.layers, a.max_len, a.hidden),
            torch.zeros(a.layers, a.max_len, a.hidden))
    path = os.path.join(a.out, "decoder_step.onnx")
    with torch.no_grad():
        torch.onnx.export(model, args, path, opset_version=17,
                          input_names=["token", "pos", "mask", "k_cache",
                                       "v_cache"],
                          output_names=["logits", "k_new", "v_new"])
        prompt = [3, 14, 15, 92]
        ref = greedy(model, prompt, 8, a.layers, a.max_len, a.hidden)
    with open(os.path.join(a.out, "decoder_step.ref.txt"), "w") as f:
        f.write("prompt " + " ".join(map(str, prompt)) + "\n")
        f.write("tokens " + " ".join(map(str, ref)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
