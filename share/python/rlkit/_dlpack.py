"""backend="cuda" of rlkit.atari: batches handed to PyTorch through DLPack.

The NumPy arrays over the C arena become torch tensors without a copy
(torch.from_dlpack); on a CUDA device they are then moved to it.  Every
step of this path names what is missing when it cannot run.
"""


def cuda_device():
    """The torch device for backend="cuda"; raises RuntimeError naming what
    is missing (PyTorch, its CUDA support, a device)."""
    try:
        import torch
    except ImportError:
        raise RuntimeError("backend='cuda' needs PyTorch with CUDA support "
                           "(the python module 'torch' is not installed)") from None
    if not torch.backends.cuda.is_built():
        raise RuntimeError(f"backend='cuda' needs PyTorch with CUDA support "
                           f"(torch {torch.__version__} was built without CUDA)")
    if not torch.cuda.is_available() or torch.cuda.device_count() < 1:
        raise RuntimeError("backend='cuda' needs a CUDA device "
                           "(torch.cuda.is_available() is False: no GPU or no driver)")
    return torch.device("cuda", torch.cuda.current_device())


def to_device(array, device):
    """A NumPy array as a torch tensor on device: DLPack, then a transfer."""
    import torch
    return torch.from_dlpack(array).to(device, non_blocking=False)
