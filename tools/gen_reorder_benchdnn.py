#!/usr/bin/env python3
"""Writes test/data/reorder_benchdnn.txt: oneDNN's benchdnn reorder inputs
(tests/benchdnn/inputs/reorder/), transcribed below as option sets, expanded
the way benchdnn expands them (every comma list is a product; options carry
over until --reset), kept to what oneDNN 2.6 and tensorlayout share, each
problem once. The header of the output says how options were translated.

    python3 tools/gen_reorder_benchdnn.py > test/data/reorder_benchdnn.txt
    python3 tools/gen_reorder_benchdnn.py --check test/data/reorder_benchdnn.txt
"""
import itertools, sys
DTS = {'f32','f16','bf16','s32','s8','u8'}
MASK = {'common':0,'per_dim_0':1,'per_dim_1':2,'per_dim_01':3,'per_oc':2}
out = []
def scale_of(s):
    # "" | "src:per_dim_1" | "src:common:2" | "src:per_dim_1+dst:per_dim_1"
    if s == '': return '-'
    m = 0; v = 1.0
    for part in s.split('+'):
        f = part.split(':')
        if f[1] == 'per_tensor': return None
        m |= MASK[f[1]]
        x = float(f[2].rstrip('*')) if len(f) > 2 else 1.0
        v = v * x if f[0] == 'src' else v / x
    return '%d:%s' % (m, ('%.9g' % v))
def zp_of(s):
    szp = dzp = 0
    if s:
        for part in s.split('+'):
            f = part.split(':')
            val = int(f[2].rstrip('*'))
            if f[0].startswith('src'): szp = val
            else: dzp = val
    return szp, dzp
def comp_of(s):
    if s == '': return '-'
    if 'zp_comp' in s: return None
    return s.split(':')[1]
def emit(src, sdt, ddt, stag, dtag, dims, scales=[''], zps=[''], posts=[''], oflags=['']):
    for a,b,st,dt,d,sc,zp,po,of in itertools.product(sdt,ddt,stag,dtag,dims,scales,zps,posts,oflags):
        if a not in DTS or b not in DTS: continue
        S = scale_of(sc); C = comp_of(of)
        if S is None or C is None: continue
        if C != '-' and b != 's8': continue
        szp, dzp = zp_of(zp)
        beta = po.split(':')[1] if po else '-'
        out.append((src, a, b, st, dt, d, S, beta, szp, dzp, C))
L = lambda s: s.split(',')
I4 = L('f32,s32,s8,u8')
# test_reorder_all
f='test_reorder_all'
emit(f, I4, I4, L('abx,axb,aBx4b,aBx8b,aBx16b'), L('abx,axb,aBx8b,aBx16b'), ['2x64x3x3'], ['src:per_dim_1'])
emit(f, I4, I4, L('abx,axb,aBx16b'), L('abx,axb,aBx16b'), ['2x64x1x1'], ['', 'src:per_dim_1'], posts=['sum:0.5'])
P=['sum:0.5']
emit(f, I4, I4, L('abx,xba'), L('abx,xba'), ['2x64x3x3'], ['src:per_dim_0'], posts=P)
emit(f, I4, I4, L('abx,gOIhw16i16o'), L('abx,gOIhw16i16o'), ['3x32x32x2x2'], ['src:per_dim_01'], posts=P)
emit(f, I4, I4, L('aBx4b,aBx8b'), ['aBx16b'], ['2x40x3x3'], ['src:per_dim_01'], posts=P)
emit(f, I4, I4, ['aBx16b'], ['aBx8b'], ['2x40x3x3'], ['src:per_dim_01'], posts=P)
emit(f, I4, I4, ['ab'], ['AB16b16a2b'], ['16x63'], ['src:per_dim_01'], posts=P)
C=['src:common:0.25']
emit(f, I4, I4, L('abx,axb'), L('abx,axb'), ['2x8x8'], C, posts=P)
emit(f, I4, I4, L('abx,axb,aBx4b,aBx8b,aBx16b'), L('abx,axb,aBx4b,aBx8b,aBx16b'), ['2x64x3x3'], C, posts=P)
emit(f, I4, I4, L('abx,xba'), L('abx,xba'), ['2x64x3x3'], C, posts=P)
F=['f32']
BA=L('BA16a16b,BA16a32b,BA16a48b,BA16a64b'); ACB=L('aCB16b16c,aCB16b32c,aCB16b48c,aCB16b64c')
emit(f, F, F, L('ab,ba'), BA, ['89x73'], C, posts=P)
emit(f, F, F, BA, L('ab,ba'), ['89x73'], C, posts=P)
emit(f, F, F, L('abc,acb'), ACB, ['57x89x73'], C, posts=P)
emit(f, F, F, ACB, L('abc,acb'), ['57x89x73'], C, posts=P)
emit(f, F, F, ['axb'], ['decbA8a'], L('2x17x12x16x16,65x16x16x5x5'), C, posts=P)
emit(f, F, F, L('aBx4b,aBx8b'), ['aBx16b'], L('2x71x16x16,2x72x16x16,2x73x16x16'), C, posts=P)
emit(f, F, F, ['aBx16b'], ['aBx8b'], L('2x71x16x16,2x72x16x16,2x73x16x16'), C, posts=P)
# test_reorder_float16
f='test_reorder_float16'
W=[('aBx16b','2x64x14x14,2x56x14x14'),('gOIhw16i16o','2x64x64x3x3,2x56x56x3x3'),('gOIhw8i16o2i','2x64x64x3x3,2x56x56x3x3'),
   ('gOIhw8o16i2o','2x64x64x3x3,2x56x56x3x3'),('gOIhw2i4o2i','4x16x16x3x3,2x16x6x3x2,2x2x10x2x3'),('gOIhw2o4i2o','4x16x16x3x3,2x16x6x3x2,2x2x10x2x3'),
   ('gOIhw4i8o2i','4x16x16x3x3,2x16x6x3x2,2x2x10x2x3'),('gOIhw4o8i2o','4x16x16x3x3,2x16x6x3x2,2x2x10x2x3')]
WS=[('aBx16b',W[0][1]),('gOIhw16i16o',W[1][1]),('gOIhw8i16o2i',W[2][1]),('gOIhw8o16i2o',W[3][1]),('aBCde2b4c2b',W[4][1]),
    ('aBCde2c4b2c',W[4][1]),('aBCde4b8c2b',W[4][1]),('aBCde4c8b2c',W[4][1])]
for t,d in W: emit(f, L('f32,bf16,s8,u8'), ['f16'], L('abx,axb'), [t], L(d))
for t,d in WS: emit(f, ['f16'], L('f32,bf16,s8,u8'), [t], L('abx,axb'), L(d))
emit(f, F, ['f16'], ['abx'], ['abx'], ['3x5x7x11'], ['src:per_dim_1:0.5*', 'dst:per_dim_1:0.5*'])
emit(f, ['f16'], F, ['abx'], ['abx'], ['3x5x7x11'], ['src:per_dim_1:0.5*', 'dst:per_dim_1:0.5*'])
# test_reorder_bfloat16
f='test_reorder_bfloat16'
for t,d in W: emit(f, L('f32,bf16,s8,u8'), ['bf16'], ['abx'], [t], L(d))
for t,d in WS: emit(f, ['bf16'], L('f32,s8,u8'), [t], ['abx'], L(d))
# harness_reorder_saturation
f='harness_reorder_saturation'
T5=L('abx,axb,aBx4b,aBx8b,aBx16b'); SAT=['src:common:4294967295*']
emit(f, I4, I4, T5, T5, L('1x17x9x5,2x64x3x3'), SAT)
emit(f, ['s32'], L('f32,s8'), T5, T5, ['1x17x9x5'], SAT, zps=['src:common:1*'])
# harness_reorder_amx
f='harness_reorder_amx'
def amx(k):  # k: 4 for s8, 2 for bf16
    r=[]
    g3='2x64x64x3x3x3,2x56x56x3x3x3,2x14x114x3x2x5'; g3b='2x64x3x7x7x7,2x32x3x3x3x3'
    o3='64x128x3x3x3,55x114x3x7x5,32x3x7x3x5,24x256x3x7x5'; o3b='64x3x7x7x7,32x3x3x3x3'
    g2='2x64x64x3x3,2x56x56x3x3,2x14x114x3x2'; g2b='2x64x3x7x7,2x32x3x3x3'
    o2='64x128x3x3,55x114x3x7,32x3x7x3,24x256x3x3'; o2b='64x3x7x7,32x3x3x3'
    g1='2x64x64x3,2x56x56x3,2x14x114x2'; g1b='2x64x3x7,2x32x3x3'
    o1='64x128x3,55x114x5,32x3x7,24x256x3'; o1b='64x3x7,32x3x3'
    i='%di' % k
    r.append(('goidhw','gOIdhw16i16o'+i,g3)); r.append(('goidhw','gOdhwI16o'+i,g3b))
    for b in (16,32,48,64): r.append(('oidhw','OIdhw16i%do%s'%(b,i),o3))
    r.append(('oidhw','OdhwI16o'+i,o3b))
    r.append(('goihw','gOIhw16i16o'+i,g2)); r.append(('goihw','gOhwI16o'+i,g2b))
    if k == 2: r.append(('goihw','gOIhw16o16i2o',g2))
    for b in (16,32,48,64): r.append(('oihw','OIhw16i%do%s'%(b,i),o2))
    r.append(('oihw','OhwI16o'+i,o2b))
    r.append(('goiw','gOIw16i16o'+i,g1)); r.append(('goiw','gOwI16o'+i,g1b))
    if k == 2: r.append(('goiw','gOIw16o16i2o',g1))
    for b in (16,32,48,64): r.append(('oiw','OIw16i%do%s'%(b,i),o1))
    r.append(('oiw','OwI16o'+i,o1b))
    for b in (16,32,48,64): r.append(('ab','BA16a%db%da'%(b,k),'89x73')); r.append(('ba','BA16a%db%da'%(b,k),'89x73'))
    return r
for pl,bl,d in amx(4): emit(f, F, ['s8'], [pl], [bl], L(d)); emit(f, ['s8'], F, [bl], [pl], L(d))
for pl,bl,d in amx(2):
    # the input's f32 -> bf16 oiw block names OwI16o2i as --stag (the dtag
    # stays OIw16i64o2i); taken as written
    if bl == 'OwI16o2i': emit(f, F, ['bf16'], [bl], ['OIw16i64o2i'], L(d))
    else: emit(f, F, ['bf16'], [pl], [bl], L(d))
    emit(f, ['bf16'], F, [bl], [pl], L(d))
# harness_reorder_compensation
f='harness_reorder_compensation'
SC=['','src:common:2','src:per_dim_0','src:per_dim_1','src:per_dim_01']
OF1=['','s8s8_comp:1']
D1=['32x32x3','32x32x3x3','80x24x3x5','32x32x3x3x3']
DT1=L('xba,ABx2b8a4b,ABx4a4b,ABx4b16a4b,ABx4b32a4b,ABx4b64a4b')
emit(f, F, ['s8'], L('abx,xba,bxa'), DT1, D1, SC, oflags=OF1)
emit(f, L('bf16,s8'), ['s8'], L('abx,xba,bxa'), DT1, D1, ['','src:common:2'], oflags=OF1)
emit(f, L('f32,bf16,s8'), ['s8'], L('abx,xba,bxa'), L('ABx4b16a4b,ABx4b32a4b,ABx4b64a4b'), ['80x24'], ['','src:common:2'], oflags=OF1)
emit(f, L('f32,bf16,s8'), ['s8'], L('abx,xba,bxa'), ['ABc2b8a4b'], ['4x4x1'], ['src:per_dim_01'], oflags=OF1)
emit(f, L('f32,bf16,s8'), ['s8'], L('abx,xba,bxa'), L('AxB16a4b,ABx16b16a4b'), L('32x32x3,32x32x3x3,80x24x3x5'))
emit(f, L('f32,bf16,s8'), ['s8'], L('abx,xba,bxa'), ['Acb16a'], ['32x32x3'])
emit(f, L('f32,bf16,s8'), ['s8'], L('abx,xba,bxa'), ['Adcb16a'], ['32x32x3x3'])
OF3=['','s8s8_comp:3']; SC2=['','src:common:2']; G=L('f32,bf16,s8'); GS=L('abx,xcab')
emit(f, G, ['s8'], GS, ['xcab'], L('2x32x32x3,2x32x32x3x3,16x32x32x3x3x3'), SC2, oflags=OF3)
emit(f, G, ['s8'], GS, ['aBCx4c16b4c'], L('2x32x32x3,2x32x32x3x3'), SC2, oflags=OF3)
emit(f, G, ['s8'], GS, ['aBCx4b4c'], L('2x36x36x3,2x36x36x3x3,2x35x35x3x3'), SC2, oflags=OF3)
emit(f, G, ['s8'], GS, ['aBCx2c8b4c'], L('2x40x40x3,2x40x40x3x3'), SC2, oflags=OF3)
emit(f, G, ['s8'], GS, L('Abcx16a,Abcx8a,Abcx4a'), L('64x1x1x3,512x1x1x3x3,3x2x2x3'), SC2, oflags=OF3)
emit(f, G, ['s8'], GS, L('aBxC16b4c,aBCx16c16b4c'), L('2x32x32x3,2x32x32x3x3'))
emit(f, G, ['s8'], GS, ['aBdc16b'], ['2x32x32x3'])
emit(f, G, ['s8'], GS, ['aBedc16b'], ['2x32x32x3x3'])
emit(f, G, ['s8'], L('ab,ba'), L('BA16a16b4a,BA16a32b4a,BA16a48b4a,BA16a64b4a'), L('64x64,89x73'), oflags=['s8s8_comp:2'])
emit(f, G, ['s8'], L('abc,acb'), L('aCB16b16c4b,aCB16b32c4b,aCB16b48c4b,aCB16b64c4b'), L('64x64x64,57x89x73'), oflags=['s8s8_comp:5'])
# harness_reorder_regression
f='harness_reorder_regression'
emit(f, ['u8'], F, ['abdc'], ['abcd'], ['1x32x128x33'], zps=['src:common:1'])
emit(f, ['bf16'], ['bf16'], ['aBcde4b'], ['aBcde4b'], ['2x24x19x19x19'])
# harness_reorder_scales (runtime dims mask 0 only; zp_comp parts skipped)
f='harness_reorder_scales'
SS=[s.strip() for s in '''src:common:2*, src:per_dim_0:2*, src:per_dim_1:2*, src:per_dim_01:2*, dst:common:2*, dst:per_dim_0:2*, dst:per_dim_1:2*, dst:per_dim_01:2*, src:common:4*+dst:common:2*, src:per_dim_0:4*+dst:per_dim_0:2*, src:per_dim_1:4*+dst:per_dim_1:2*, src:per_dim_01:4*+dst:per_dim_01:2*, src:per_dim_1:4*+dst:common:2*, src:common:4*+dst:per_dim_1:2*'''.split(',')]
DD=L('f32,bf16,f16,s8'); ST=L('abx,axb')
emit(f, F, DD, ST, ['abx'], L('2x15,2x16x4,2x16x3x4,2x16x3x4x5'), SS)
emit(f, F, DD, ST, ['axb'], L('2x15,2x16x4,2x16x3x4,2x16x3x4x5'), SS)
emit(f, F, DD, ST, ['Abx16a'], L('47x16x12x4,16x16x12x3x4,3x16x12x3x4x5,47x1x1x4,16x1x1x3x4,3x1x1x3x4x5'), SS)
emit(f, F, DD, ST, ['aBx16b'], L('2x47x4,2x16x3x4,2x3x3x4x5'), SS)
emit(f, F, DD, ST, ['ABx4b4a'], L('47x47x4,16x16x3x4,2x2x3x4x5'), SS)
emit(f, F, DD, ST, ['aBCx8c8b'], L('2x47x47x4,2x16x16x3x4,4x2x2x3x4x5'), SS)
emit(f, F, DD, ST, ['aBCx4c16b4c'], L('2x47x47x4,2x16x16x3x4,4x2x2x3x4x5'), SS)
# test_reorder_ci / test_reorder_smoke
f='test_reorder_ci'
A6=L('f32,bf16,f16,s32,s8,u8')
emit(f, A6, A6, ['abx'], L('abx,axb,xba'), L('2x16x3x4,1x17x5x3,30x1'), ['','src:per_dim_1+dst:per_dim_1'],
     ['','src:common:-1+dst:common:2'], ['','sum:0.5'])
emit(f, L('s8,u8'), F, ['adbc'], ['abcd'], ['1x12x128x33'], zps=['src:common:-1'])
emit(f, F, A6, ['abx'], ['axb'], ['2x16x3x4'], [s.replace('*','') for s in SS])
emit(f, F, F, ['abx'], ['axb'], L('1x4x84x84,1x512x100,1x512x101,2x64x15x10x20,2x64x18x18x18,2x64x19x19x7,2x64x31x32x16,2x64x8'))
emit(f, F, F, ['axb'], ['abx'], L('1x4x84x84,1x512x100,1x512x101,2x64x15x10x20,2x64x18x18x18,2x64x19x19x7,2x64x31x32x16,2x64x8'))
emit(f, F, F, ['ab'], ['ba'], L('16x64,7x65')); emit(f, F, F, ['ba'], ['ab'], L('16x64,7x65'))
f='test_reorder_smoke'
emit(f, A6, A6, ['abx'], ['axb'], L('2x16x3x4,1x17x5x3'), ['','src:per_dim_1+dst:per_dim_1'],
     ['','src:common:-1+dst:common:2'], ['','sum:0.5'])
# test_default (older input: per_oc and common scales, s8s8 weights; its
# common:0. asks benchdnn to sweep its default scales, taken here as 0.5)
f='test_default'
for fm in (L('nchw,nhwc,nChw8c,nChw16c'),):
    emit(f, I4, I4, fm, fm, ['2x64x3x3'], ['src:per_oc'])
emit(f, I4, I4, L('oihw,hwio'), L('oihw,hwio'), ['2x64x3x3'], ['src:per_oc'])
emit(f, I4, I4, L('goihw,gOIhw16i16o'), L('goihw,gOIhw16i16o'), ['3x32x32x2x2'], ['src:per_oc'])
emit(f, I4, I4, ['nChw8c'], ['nChw16c'], ['2x40x3x3'], ['src:per_oc']); emit(f, I4, I4, ['nChw16c'], ['nChw8c'], ['2x40x3x3'], ['src:per_oc'])
emit(f, I4, I4, L('ncw,nwc'), L('ncw,nwc'), ['2x8x8'], ['src:common:0.5'])
emit(f, I4, I4, L('nchw,nhwc,nChw8c,nChw16c'), L('nchw,nhwc,nChw8c,nChw16c'), ['2x64x3x3'], ['src:common:0.5'])
emit(f, I4, I4, L('oihw,hwio'), L('oihw,hwio'), ['2x64x3x3'], ['src:common:0.5'])
emit(f, F, ['bf16'], L('nchw,nChw16c'), L('nchw,nChw16c'), L('2x64x3x3,2x65x3x3'))
emit(f, F, ['bf16'], L('goihw,gOIhw16i16o'), L('goihw,gOIhw16i16o'), L('2x64x64x7x7,2x33x33x7x7'))
emit(f, F, ['bf16'], L('goihw,gIOhw8o16i2o'), L('goihw,gIOhw8o16i2o'), L('2x64x64x7x7,2x33x33x7x7'))
for a,b,d,m in (('hwio','hwio','32x32x3x3','1'),('hwigo','hwigo','2x32x32x3x3','3'),('hwio','OIhw4i16o4i','32x32x3x3','1'),
                ('hwigo','gOIhw4i16o4i','2x32x32x3x3','3'),('hwigo','gOIhw4o4i','2x36x36x3x3','3'),('hwigo','gOIhw2i8o4i','2x40x40x3x3','3'),
                ('hwigo','Goihw16g','512x1x1x3x3','3')):
    emit(f, L('s8,f32'), ['s8'], [a], [b], [d], oflags=['s8s8_comp:'+m])
f='test_reorder_unsupported'
emit(f, L('f32,s8'), ['s8'], ['OIhw16i16o'], ['hwio'], ['32x64x3x3'], oflags=['s8s8_comp:1'])


HEADER = """# oneDNN's own reorder test problems, translated from its benchdnn inputs
# (tests/benchdnn/inputs/reorder/: test_reorder_all, test_reorder_float16,
# test_reorder_bfloat16, harness_reorder_saturation, harness_reorder_amx,
# harness_reorder_compensation, harness_reorder_regression,
# harness_reorder_scales, test_reorder_ci, test_reorder_smoke, test_default,
# test_reorder_unsupported), for the data types and attributes oneDNN 2.6
# and tensorlayout share. Read by test/test_reorder_benchdnn.c.
#
# One problem per line, fields separated by blanks:
#   sdt ddt stag dtag dims scales beta src_zp dst_zp comp
# sdt, ddt  f32 f16 bf16 s32 s8 u8
# stag/dtag benchdnn's spelling: a tag of tl_md_init_by_tag, where x stands
#           for the dims not named, in order (abx is abcd in 4-D, xba is
#           cdba, xcab is decab in 5-D, aBx16b is aBcd16b)
# dims      2x64x3x3
# scales    - (none) or MASK:V: output scales over the dims of MASK (bit d:
#           dim d); slice j gets V * {1, 0.5, 2, 0.25, 1.5, 4, 0.125}[j % 7],
#           MASK 0 gets V alone. benchdnn's common is 0, per_dim_0 1,
#           per_dim_1 and per_oc 2, per_dim_01 3.
# beta      - or the sum post-op's scale (sum:0.5)
# zps       src and dst zero points (0: none)
# comp      - or the s8s8 compensation mask (--oflag=s8s8_comp:M)
#
# Translation rules: oneDNN 2.6 has one output scale per slice, so a
# src:M1:V1+dst:M2:V2 pair of newer inputs becomes mask M1|M2 and value
# V1/V2. Left out: f8/f4/s4/int4 types, --runtime-dim-mask (only its 0
# case kept), per_tensor scales, zp_comp flags, GPU-only inputs, and the
# two jit corner cases of test_reorder_all with 11.8e9 and 4.3e9 elements.
# Every problem the inputs name is here once (the first time), in their order
# (options carry over from line to line until --reset, as benchdnn
# reads them).
"""

def main():
    import io
    real, sys.stdout = sys.stdout, io.StringIO()
    seen, keep = set(), []
    for p in out:
        if p[1:] not in seen:
            seen.add(p[1:])
            keep.append(p)
    sys.stdout.write(HEADER)
    cur = None
    for p in keep:
        if p[0] != cur:
            cur = p[0]
            print('\n# %s' % cur)
        print('%s %s %s %s %s %s %s %d %d %s' % p[1:])
    text, sys.stdout = sys.stdout.getvalue(), real
    if len(sys.argv) == 3 and sys.argv[1] == '--check':
        with open(sys.argv[2]) as f:
            if f.read() != text:
                sys.exit('%s is out of date: rerun tools/gen_reorder_benchdnn.py' % sys.argv[2])
    else:
        sys.stdout.write(text)

main()
