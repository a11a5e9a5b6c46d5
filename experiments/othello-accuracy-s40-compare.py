"""S=40 accuracy of the UCT+dZ variants with the S=40 coefficient rows against the same
searches before them (roots at move 40 used the S=30 row): the same seeds and positions,
paired per position. Run from the repository root:

    python3 experiments/othello-accuracy-s40-compare.py

Reads experiments/othello-accuracy-300-{10k,30k,50k}.jsonl (before) and
experiments/othello-accuracy-300-s40-fit40.jsonl (after); prints a markdown table.
"""
import json,collections,math,sys
old={}
for f in ['10k','30k','50k']:
    for l in open(f'experiments/othello-accuracy-300-{f}.jsonl'):
        r=json.loads(l)
        if r['stage']==40: old[(r['variant'],r['playouts'],r['index'])]=r
new={}
for l in open('experiments/othello-accuracy-300-s40-fit40.jsonl'):
    r=json.loads(l); new[(r['variant'],r['playouts'],r['index'])]=r
pts={'win':1,'draw':0.5,'loss':0}
cells=collections.defaultdict(list)
for k,r in new.items():
    o=old[k]; assert o['seed']==r['seed']
    cells[(k[0],k[1])].append((pts[o['outcome']],pts[r['outcome']], o['chosen']==r['chosen']))
print("| variant | playouts | N | S=30 row (before) % | S=40 row % | difference (paired SE) | same move |")
print("|---|---:|---:|---:|---:|---:|---:|")
alld=[]
for (v,n),xs in sorted(cells.items(), key=lambda x:(x[0][0],x[0][1])):
    N=len(xs); a=sum(x[0] for x in xs)/N; b=sum(x[1] for x in xs)/N
    d=[x[1]-x[0] for x in xs]; alld+=d
    md=sum(d)/N; sd=math.sqrt(sum((x-md)**2 for x in d)/(N-1)) if N>1 else 0
    print(f"| {v} | {n} | {N} | {100*a:.1f} | {100*b:.1f} | {100*md:+.1f} ({100*sd/math.sqrt(N):.1f}) | {sum(x[2] for x in xs)} |")
N=len(alld); md=sum(alld)/N; sd=math.sqrt(sum((x-md)**2 for x in alld)/(N-1))
print(f"\nall cells: N={N}, mean difference {100*md:+.2f} points (SE {100*sd/math.sqrt(N):.2f}, cells share positions)")
