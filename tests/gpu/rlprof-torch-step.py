"""A few PyTorch training steps on the GPU, each inside the NVTX operation
train_step, for tests/gpu/rlprof.sh."""
import torch

model = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.ReLU(),
                            torch.nn.Linear(1024, 10)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(256, 512, device="cuda")
y = torch.randint(0, 10, (256,), device="cuda")
for _ in range(5):
    torch.cuda.nvtx.range_push("train_step")
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
print(f"loss {loss.item():.4f}")
