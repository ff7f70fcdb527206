"""Reference values of the ten BBOB functions used by BbobFunctionTest.

Written independently of the Java code from the formulas of N. Hansen, S. Finck, R. Ros and A. Auger,
"Real-Parameter Black-Box Optimization Benchmarking 2009: Noiseless Functions Definitions" (INRIA RR-6829),
with f_opt = 0. Run: python3 bbob_reference.py > bbob_reference.txt
"""
import numpy as np

D = 3
x_opt = np.array([1.0, -2.0, 0.5])
x = np.array([2.0, 0.0, -1.0])
c, s = np.cos(0.3), np.sin(0.3)
# R: rotation by 0.3 rad in the (1, 2) plane, then coordinate 3 kept; Q: rotation by -0.7 rad in the (2, 3) plane
R = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
c2, s2 = np.cos(-0.7), np.sin(-0.7)
Q = np.array([[1.0, 0.0, 0.0], [0.0, c2, -s2], [0.0, s2, c2]])
r = np.arange(D) / (D - 1)


def t_osz(t):
    out = np.zeros_like(t)
    for i, v in enumerate(t):
        if v == 0:
            continue
        h = np.log(abs(v))
        c1, c2 = (10.0, 7.9) if v > 0 else (5.5, 3.1)
        out[i] = np.sign(v) * np.exp(h + 0.049 * (np.sin(c1 * h) + np.sin(c2 * h)))
    return out


def t_asy(t, beta):
    out = t.copy()
    for i, v in enumerate(t):
        if v > 0:
            out[i] = v ** (1 + beta * r[i] * np.sqrt(v))
    return out


lam10 = np.diag(10.0 ** (0.5 * r))


def rastrigin(z):
    return 10 * (D - np.sum(np.cos(2 * np.pi * z))) + np.sum(z ** 2)


def ellipsoid(z):
    return np.sum(10.0 ** (6 * r) * z ** 2)


values = {}
values["sphere"] = np.sum((x - x_opt) ** 2)
values["ellipsoid"] = ellipsoid(t_osz(x - x_opt))
values["rastrigin"] = rastrigin(lam10 @ t_asy(t_osz(x - x_opt), 0.2))
opt5 = 5 * np.sign(x_opt)
sl = np.sign(opt5) * 10.0 ** r
zl = np.where(opt5 * x < 25, x, opt5)
values["linear-slope"] = np.sum(5 * np.abs(sl) - sl * zl)
cr = max(1.0, np.sqrt(D) / 8)
zr = cr * (x - 0.75 * x_opt) + 1
values["rosenbrock"] = np.sum(100 * (zr[:-1] ** 2 - zr[1:]) ** 2 + (zr[:-1] - 1) ** 2)
values["ellipsoid-rotated"] = ellipsoid(t_osz(R @ (x - x_opt)))
zd = t_osz(R @ (x - x_opt))
values["discus"] = 1e6 * zd[0] ** 2 + np.sum(zd[1:] ** 2)
zb = R @ t_asy(R @ (x - x_opt), 0.5)
values["bent-cigar"] = zb[0] ** 2 + 1e6 * np.sum(zb[1:] ** 2)
zp = R @ (x - x_opt)
values["different-powers"] = np.sqrt(np.sum(np.abs(zp) ** (2 + 4 * r)))
values["rastrigin-rotated"] = rastrigin(R @ lam10 @ Q @ t_asy(t_osz(R @ (x - x_opt)), 0.2))
for k, v in values.items():
    print(f"{k} {float(v)!r}")
print(f"t_osz(2.0) {float(t_osz(np.array([2.0]))[0])!r}")
print(f"t_osz(-0.5) {float(t_osz(np.array([-0.5]))[0])!r}")
